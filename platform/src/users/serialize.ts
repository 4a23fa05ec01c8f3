import type {
  AvailableLocalesEnum,
  ConnectedAccountProviders,
  ConnectedAccountResponse,
  GuildFeatures,
  MyGuildResponse,
  UserPIIResponse,
  UserPrimaryGuildResponse,
  UserResponse,
} from 'discord-api-spec';
import type { PlatformKernel } from '../kernel.js';
import { memberPermissions } from '../bot-api/guilds/permissions.js';
import { hasScope } from '../oauth/scopes.js';
import type { ApplicationRecord, ConnectionRecord, GuildRecord, UserRecord } from '../store/types.js';

/** What svcpp adds to the published user object (PROTOCOL.md §4, "Deliberate differences"). */
type SvcppUserFields = {
  is_provisional: boolean;
  is_restricted?: true;
};

/** The public user object (published `UserResponse`). */
export type PublicUserJson = UserResponse & SvcppUserFields;
/** The caller's own user object (published `UserPIIResponse`; `primary_guild` is always sent). */
export type SelfUserJson = UserPIIResponse & PublicUserJson;
export type UserJson = PublicUserJson | SelfUserJson;

/** Who is looking: the viewing application and, for the current user, the scopes of the token. */
export interface UserView {
  app?: ApplicationRecord;
  /** Present when the user is the caller itself (GET /users/@me, OAuth2 @me, gateway READY). */
  selfScopes?: readonly string[];
}

function primaryGuildJson(ctx: PlatformKernel, user: UserRecord): UserPrimaryGuildResponse | null {
  if (!user.primaryGuildId) return null;
  const guild = ctx.store.guilds.get(user.primaryGuildId);
  if (!guild?.tag) return null;
  return { identity_guild_id: guild.id, identity_enabled: true, tag: guild.tag, badge: null };
}

/**
 * The user object (platform/PROTOCOL.md §4). `is_provisional` is the svcpp marker (OURS); `is_restricted` appears on
 * ban-created provisional accounts. `flags` is published on every user object (0: no account flags are modelled).
 * `premium_type` is 0 unless the viewing app is approved for identify.premium and the token holds it (spec). Email
 * and verified need the email scope.
 */
export function userJson(ctx: PlatformKernel, user: UserRecord, view?: { app?: ApplicationRecord }): PublicUserJson;
export function userJson(
  ctx: PlatformKernel,
  user: UserRecord,
  view: UserView & { selfScopes: readonly string[] },
): SelfUserJson;
export function userJson(ctx: PlatformKernel, user: UserRecord, view: UserView = {}): UserJson {
  const json: PublicUserJson = {
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
    flags: 0,
    primary_guild: primaryGuildJson(ctx, user),
    is_provisional: user.isProvisional,
  };
  if (user.bot) json.bot = true;
  if (user.restrictedByUserId) json.is_restricted = true;
  if (!view.selfScopes) return json;
  const scopes = view.selfScopes;
  const premiumVisible = view.app?.identifyPremiumApproved === true && hasScope(scopes, 'identify.premium');
  const self: SelfUserJson = {
    ...json,
    mfa_enabled: false,
    // Locales are stored as the published locale names (config and dev routes take them as given).
    locale: user.locale as AvailableLocalesEnum,
    premium_type: premiumVisible ? user.premiumType : 0,
  };
  if (hasScope(scopes, 'email') || user.bot) {
    self.email = user.email;
    self.verified = user.verified;
  }
  return self;
}

/**
 * The public user object of `userId`. An account can be gone while objects still name it (a provisional account
 * merged away after a message of it was copied into a linked channel): then the published shape of a deleted user,
 * so the object stays a user object.
 */
export function knownUserJson(ctx: PlatformKernel, userId: string): PublicUserJson {
  const user = ctx.store.users.get(userId);
  if (user) return userJson(ctx, user);
  return {
    id: userId,
    username: 'deleted_user',
    discriminator: '0',
    global_name: null,
    avatar: null,
    public_flags: 0,
    flags: 0,
    primary_guild: null,
    is_provisional: false,
  };
}

/** A bot looking at itself: every self field, no scope rules (bots have no scopes). */
export function botSelfJson(ctx: PlatformKernel, user: UserRecord, app: ApplicationRecord): SelfUserJson {
  return userJson(ctx, user, { app, selfScopes: ['email'] });
}

/** Partial guild of GET /users/@me/guilds; `banner` is included for each guild (spec). */
export function partialGuildJson(guild: GuildRecord, userId: string, withCounts: number | undefined): MyGuildResponse {
  const json: MyGuildResponse = {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner: guild.ownerId === userId,
    permissions: memberPermissions(guild, userId),
    // Feature names come from the config as given (PROTOCOL.md §7).
    features: guild.features as GuildFeatures[],
  };
  if (withCounts !== undefined) {
    json.approximate_member_count = withCounts;
    json.approximate_presence_count = 0;
  }
  return json;
}

export function connectionJson(connection: ConnectionRecord): ConnectedAccountResponse {
  return {
    // Provider types come from the config as given (PROTOCOL.md §7).
    type: connection.type as ConnectedAccountProviders,
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
