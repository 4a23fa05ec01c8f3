import type { PlatformContext } from '../context.js';
import { memberPermissions } from '../guilds/permissions.js';
import { hasScope } from '../oauth/scopes.js';
import type { ApplicationRecord, ConnectionRecord, GuildRecord, UserRecord } from '../store/types.js';

export type UserJson = Record<string, unknown>;

/** Who is looking: the viewing application and, for the current user, the scopes of the token. */
export interface UserView {
  app?: ApplicationRecord;
  /** Present when the user is the caller itself (GET /users/@me, OAuth2 @me, gateway READY). */
  selfScopes?: readonly string[];
}

function primaryGuildJson(ctx: PlatformContext, user: UserRecord): UserJson | null {
  if (!user.primaryGuildId) return null;
  const guild = ctx.store.guilds.get(user.primaryGuildId);
  if (!guild?.tag) return null;
  return { identity_guild_id: guild.id, identity_enabled: true, tag: guild.tag, badge: null };
}

/**
 * The user object (wire-protocol §10). `is_provisional` is the svcpp marker (OURS); `is_restricted` appears on
 * ban-created provisional accounts. `premium_type` is 0 unless the viewing app is approved for identify.premium and
 * the token holds it (spec). Email and verified need the email scope.
 */
export function userJson(ctx: PlatformContext, user: UserRecord, view: UserView = {}): UserJson {
  const json: UserJson = {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.globalName,
    avatar: user.avatar,
    banner: user.banner,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    public_flags: 0,
    primary_guild: primaryGuildJson(ctx, user),
    is_provisional: user.isProvisional,
  };
  if (user.bot) json.bot = true;
  if (user.restrictedByUserId) json.is_restricted = true;
  if (view.selfScopes) {
    const scopes = view.selfScopes;
    const premiumVisible = view.app?.identifyPremiumApproved === true && hasScope(scopes, 'identify.premium');
    json.flags = 0;
    json.mfa_enabled = false;
    json.locale = user.locale;
    json.premium_type = premiumVisible ? user.premiumType : 0;
    if (hasScope(scopes, 'email') || user.bot) {
      json.email = user.email;
      json.verified = user.verified;
    }
  }
  return json;
}

/** A bot looking at itself: every self field, no scope rules (bots have no scopes). */
export function botSelfJson(ctx: PlatformContext, user: UserRecord, app: ApplicationRecord): UserJson {
  return userJson(ctx, user, { app, selfScopes: ['email'] });
}

/** Partial guild of GET /users/@me/guilds; `banner` is included for each guild (spec). */
export function partialGuildJson(guild: GuildRecord, userId: string, withCounts: number | undefined): UserJson {
  const json: UserJson = {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner: guild.ownerId === userId,
    permissions: memberPermissions(guild, userId),
    features: guild.features,
  };
  if (withCounts !== undefined) {
    json.approximate_member_count = withCounts;
    json.approximate_presence_count = 0;
  }
  return json;
}

export function connectionJson(connection: ConnectionRecord): UserJson {
  return {
    type: connection.type,
    id: connection.id,
    name: connection.name,
    verified: connection.verified,
    visibility: connection.visibility,
    friend_sync: false,
    show_activity: true,
    two_way_link: false,
    revoked: false,
    integrations: [],
  };
}
