/**
 * The local client started with the platform (PROTOCOL.md §12.8): every operation is the platform service the
 * matching HTTP route or gateway opcode uses — presence, invites, OAuth2 grants, token lookup — called directly.
 */
import { login } from '../../accounts/login.js';
import type { BusEvent } from '../../events/bus.js';
import { findBearer } from '../../http/auth.js';
import { ApiError } from '../../http/errors.js';
import type { PlatformUrls } from '../../http/urls.js';
import { approveCodeGrant, type CodeGranting } from '../../oauth/authorize/approve.js';
import { checkGrantParams } from '../../oauth/authorize/request.js';
import { matchRedirectUri } from '../../oauth/redirect-uris.js';
import { SocialErrors } from '../../social/errors.js';
import type { SocialServices } from '../../social/index.js';
import { INVITE_JOIN } from '../../social/invites/service.js';
import { normaliseActivity } from '../../social/presence/activity.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import { userJson } from '../../users/serialize.js';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import type { AuthorizeGrant, InviteNotice, LinkApplication, LinkUser, PlatformLink } from './platform-link.js';
import { isSnowflake } from '../../ids/snowflake.js';

const oauthError = (error: string, description: string) =>
  new RpcFailure(RpcError.OAUTH2_ERROR, `OAuth2 Error: ${error}: ${description}`);

/** What the link calls: the OAuth2 code grant (consent), and the platform's URLs (the API host in READY). */
export interface InProcessLinkServices extends CodeGranting {
  urls: () => PlatformUrls;
}

export class InProcessLink implements PlatformLink {
  private readonly listeners: Array<(notice: InviteNotice) => void> = [];
  private unsubscribeBus: (() => void) | undefined;

  constructor(
    private readonly ctx: InProcessLinkServices,
    private readonly social: SocialServices,
    private readonly desktop: UserRecord,
  ) {
    this.reopen();
  }

  /** Read fresh from the store: a ban or rename shows at once. */
  private desktopRecord(): UserRecord {
    return this.ctx.store.users.get(this.desktop.id) ?? this.desktop;
  }

  private record(application: LinkApplication): ApplicationRecord {
    const app = this.ctx.store.applications.get(application.id);
    if (!app) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, 'Invalid Client ID');
    return app;
  }

  async desktopUser(): Promise<LinkUser> {
    return userJson(this.ctx, this.desktopRecord()) as LinkUser;
  }

  apiHost(): string {
    return new URL(this.ctx.urls().api).host;
  }

  async application(clientId: string): Promise<LinkApplication | undefined> {
    const app = isSnowflake(clientId) ? this.ctx.store.applications.get(clientId) : undefined;
    return app && { id: app.id, name: app.name };
  }

  async gameSessions(application: LinkApplication, open: boolean): Promise<void> {
    this.social.presence.sessionsChanged(this.desktop.id, application.id, open);
  }

  async setActivity(application: LinkApplication, input: Parameters<PlatformLink['setActivity']>[1]) {
    const activity = input ? normaliseActivity(input, this.record(application), this.ctx.now()) : null;
    this.social.presence.update(this.desktop.id, application.id, { activity });
    return activity;
  }

  async checkAuthorize(application: LinkApplication, grant: AuthorizeGrant): Promise<void> {
    this.checkedGrant(this.record(application), grant);
  }

  private checkedGrant(app: ApplicationRecord, grant: AuthorizeGrant): string[] {
    const checked = checkGrantParams(app, {
      response_type: 'code',
      scope: grant.scopes.join(' '),
      code_challenge: grant.codeChallenge,
      code_challenge_method: grant.codeChallengeMethod,
    });
    if ('error' in checked) throw oauthError(checked.error, checked.description);
    if (grant.redirectUri !== undefined && !matchRedirectUri(app.redirectUris, grant.redirectUri)) {
      throw oauthError('invalid_request', 'Invalid OAuth2 redirect_uri');
    }
    return checked.scopes;
  }

  async authorize(application: LinkApplication, grant: AuthorizeGrant): Promise<string> {
    const app = this.record(application);
    const scopes = this.checkedGrant(app, grant);
    // Checked after consent: the account may have been banned while the prompt was open.
    const signedIn = login(this.ctx, this.desktop.id, undefined, true);
    if (!signedIn.ok) throw oauthError('access_denied', 'The account cannot sign in.');
    return approveCodeGrant(this.ctx, {
      app,
      user: signedIn.user,
      scopes,
      redirectUri: grant.redirectUri ?? null,
      codeChallenge: grant.codeChallenge ?? null,
      nonce: grant.nonce ?? null,
    });
  }

  async authenticate(application: LinkApplication, accessToken: string) {
    const principal = findBearer(this.ctx, accessToken);
    if (!principal || principal.app.id !== application.id)
      throw new RpcFailure(RpcError.INVALID_TOKEN, 'Invalid access token');
    return {
      user: userJson(this.ctx, principal.user) as LinkUser,
      scopes: principal.token.scopes,
      expiresAt: principal.token.expiresAt,
    };
  }

  async guild(accessToken: string, guildId: string) {
    const principal = findBearer(this.ctx, accessToken);
    const guild = isSnowflake(guildId) ? this.ctx.store.guilds.get(guildId) : undefined;
    if (!principal || !guild || !this.ctx.store.guilds.isMember(guildId, principal.user.id)) return undefined;
    return { id: guild.id, name: guild.name };
  }

  async user(_application: LinkApplication, userId: string): Promise<LinkUser | undefined> {
    const user = isSnowflake(userId) ? this.ctx.store.users.get(userId) : undefined;
    return user && !user.bot ? (userJson(this.ctx, user) as LinkUser) : undefined;
  }

  async sendJoinInvite(application: LinkApplication, recipientId: string): Promise<void> {
    const recipient = isSnowflake(recipientId) ? this.ctx.store.users.get(recipientId) : undefined;
    if (!recipient || recipient.bot) throw new RpcFailure(RpcError.INVALID_USER, 'Invalid User');
    try {
      this.social.invites.send(this.record(application), this.desktopRecord(), recipient, INVITE_JOIN, '');
    } catch (error) {
      // The platform's refusal (not joinable 80020, blocked 50007, …) keeps its code in the message.
      if (error instanceof ApiError) throw new RpcFailure(RpcError.INVALID_PAYLOAD, `${error.message} (${error.code})`);
      throw error;
    }
  }

  async canSeeMessage(
    _application: LinkApplication,
    messageId: string,
    channelId: string | undefined,
  ): Promise<boolean> {
    const user = this.desktop.id;
    const dm = this.ctx.store.directMessages.get(messageId);
    if (dm) return dm.authorId === user || dm.recipientId === user;
    if (channelId === undefined) return false;
    return (
      this.ctx.store.lobbies.message(channelId, messageId) !== undefined &&
      this.ctx.store.lobbies.member(channelId, user) !== undefined
    );
  }

  async acceptInvite(messageId: string) {
    const message = isSnowflake(messageId) ? this.ctx.store.directMessages.get(messageId) : undefined;
    const app = message ? this.ctx.store.applications.get(message.applicationId) : undefined;
    if (!message || !app) throw SocialErrors.unknownMessage();
    const { secret } = this.social.invites.accept(app, this.desktopRecord(), messageId);
    return { secret, applicationId: app.id };
  }

  async spectateSecret(hostUserId: string, applicationId: string): Promise<string> {
    const secret = this.social.presence.activity(hostUserId, applicationId)?.secrets?.spectate;
    if (secret === undefined) throw new Error('the activity has no spectate secret');
    return secret;
  }

  onInvite(listener: (notice: InviteNotice) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.unsubscribeBus?.();
    this.unsubscribeBus = undefined;
  }

  reopen(): void {
    this.unsubscribeBus ??= this.ctx.bus.subscribe((event) => this.busEvent(event));
  }

  /** Invites sent to the desktop user over HTTP, as the event bus carries them to the gateway. */
  private busEvent(event: BusEvent): void {
    if (event.t !== 'ACTIVITY_INVITE_CREATE' || !event.to.applicationId) return;
    const invite = event.d as {
      recipient_id: string;
      sender_id: string;
      type: number;
      channel_id?: string;
      message_id?: string;
    };
    if (invite.recipient_id !== this.desktop.id) return;
    const sender = this.ctx.store.users.get(invite.sender_id);
    if (!sender) return;
    const notice: InviteNotice = {
      applicationId: event.to.applicationId,
      type: invite.type,
      sender: userJson(this.ctx, sender) as LinkUser,
      activity: this.social.presence.activity(sender.id, event.to.applicationId) ?? null,
      channelId: invite.channel_id ?? null,
      messageId: invite.message_id ?? null,
    };
    for (const listener of this.listeners) listener(notice);
  }
}
