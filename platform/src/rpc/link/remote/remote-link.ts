/**
 * The standalone local client's link (PROTOCOL.md §12.8): a signed-in user's client of the platform, like a
 * desktop client, over the platform's public interfaces only. For each application whose games connect it holds
 * a token of the desktop user (the implicit grant, approved with the user's credentials at the authorize
 * endpoint) and, while a game of it runs, a gateway session — the user's presence for that application, op 3 for
 * SET_ACTIVITY, and the dispatches (invites, friends' presences) the games' events come from. Everything else is
 * the HTTP API with that token (or, for AUTHENTICATE and GUILD_STATUS, with the game's own token).
 */
import type { Logger } from 'pino';
import { ApiError } from '../../../http/errors.js';
import { SocialErrors } from '../../../social/errors.js';
import { normaliseActivity, type Activity, type ActivityInput } from '../../../social/presence/activity.js';
import { RpcError } from '../../codes.js';
import { RpcFailure } from '../../connection.js';
import type { AuthorizeGrant, InviteNotice, LinkApplication, LinkUser, PlatformLink } from '../platform-link.js';
import { AuthorizeEndpoint, type AppToken, type Credentials } from './authorize-endpoint.js';
import { GatewaySession, type Dispatch } from './gateway-session.js';
import { PlatformHttp } from './http.js';
import { isSnowflake } from '../../../ids/snowflake.js';

/**
 * What the local client asks for each game's application: its own user object, presence, invites and DMs (to
 * answer join requests and check OPEN_MESSAGE), lobbies (OPEN_MESSAGE of a lobby message), friends' presences
 * (the inviter's activity in ACTIVITY_INVITE). None of them needs an approval of the application (§3 "Scopes").
 */
export const LOCAL_CLIENT_SCOPES = [
  'identify',
  'activities.write',
  'presences.read',
  'dm_channels.read',
  'lobbies.write',
];

/** A token older than this is asked for again before use (tokens live a week by default). */
const TOKEN_MARGIN_MS = 60_000;

interface AppState {
  application: LinkApplication;
  token: AppToken;
  session: GatewaySession | undefined;
  /** Opening and closing the session are serialised (a game may leave while the session is still opening). */
  chain: Promise<void>;
}

export class RemoteLink implements PlatformLink {
  private readonly http: PlatformHttp;
  private readonly endpoint: AuthorizeEndpoint;
  private readonly apps = new Map<string, AppState>();
  private readonly listeners: Array<(notice: InviteNotice) => void> = [];
  /** The application each invite to the desktop user came with (the "Join" button knows it from there). */
  private readonly inviteApps = new Map<string, string>();
  /** Friends' current activities, as READY and PRESENCE_UPDATE tell each session: `${user}:${application}`. */
  private readonly friendActivities = new Map<string, Activity>();
  private me: LinkUser | undefined;
  private gatewayUrl: string | undefined;

  constructor(
    platformUrl: string,
    credentials: Credentials,
    private readonly logger: Logger,
  ) {
    this.http = new PlatformHttp(platformUrl.replace(/\/+$/, ''));
    this.endpoint = new AuthorizeEndpoint(this.http, credentials);
  }

  /** The desktop user's id, once signed in (the first game's handshake signs in). */
  get desktopUserId(): string {
    if (!this.me) throw new Error('the local client has not signed in yet');
    return this.me.id;
  }

  /** Checks the platform answers and signs in for `applicationId`; returns the desktop user. */
  async signIn(applicationId: string): Promise<LinkUser> {
    const state = await this.state(applicationId);
    if (!state)
      throw new Error(
        `the platform does not accept sign-ins for application ${applicationId} ` +
          '(unknown, or without exactly one registered redirect URI)',
      );
    return this.desktopUser();
  }

  async desktopUser(): Promise<LinkUser> {
    const any = [...this.apps.values()][0];
    if (!any) throw new Error('the local client has not signed in yet');
    this.me = await this.http.api<LinkUser>('/users/@me', { token: (await this.fresh(any)).accessToken });
    return this.me;
  }

  apiHost(): string {
    return new URL(this.http.origin).host;
  }

  async application(clientId: string): Promise<LinkApplication | undefined> {
    return (await this.state(clientId))?.application;
  }

  /** The application's state, signing in for it first; undefined when the platform refuses the client id. */
  private async state(applicationId: string): Promise<AppState | undefined> {
    const known = this.apps.get(applicationId);
    if (known) return known;
    if (!isSnowflake(applicationId)) return undefined;
    const token = await this.endpoint.token(applicationId, LOCAL_CLIENT_SCOPES);
    if (!token) return undefined;
    const me = await this.http.api<{ application: { id: string; name: string } }>('/oauth2/@me', {
      token: token.accessToken,
    });
    const state: AppState = {
      application: { id: me.application.id, name: me.application.name },
      token,
      session: undefined,
      chain: Promise.resolve(),
    };
    this.apps.set(applicationId, this.apps.get(applicationId) ?? state);
    return this.apps.get(applicationId);
  }

  private async fresh(state: AppState): Promise<AppToken> {
    if (state.token.expiresAt - TOKEN_MARGIN_MS > Date.now()) return state.token;
    const token = await this.endpoint.token(state.application.id, LOCAL_CLIENT_SCOPES);
    if (!token) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, 'Invalid Client ID');
    state.token = token;
    return token;
  }

  private async known(application: LinkApplication): Promise<AppState> {
    const state = await this.state(application.id);
    if (!state) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, 'Invalid Client ID');
    return state;
  }

  private async token(application: LinkApplication): Promise<string> {
    return (await this.fresh(await this.known(application))).accessToken;
  }

  async gameSessions(application: LinkApplication, open: boolean): Promise<void> {
    const state = await this.known(application);
    const step = state.chain.then(() => (open ? this.openSession(state) : this.closeSession(state)));
    state.chain = step.catch(() => undefined);
    return step;
  }

  private async openSession(state: AppState): Promise<void> {
    if (state.session?.open) return;
    this.gatewayUrl ??= (await this.http.api<{ url: string }>('/gateway')).url;
    const token = await this.fresh(state);
    const session = GatewaySession.open(this.gatewayUrl, token.accessToken, (dispatch) =>
      this.dispatch(state.application.id, dispatch),
    );
    state.session = session;
    void session.gone.then(({ code, byUs }) => {
      if (!byUs)
        this.logger.warn(
          { application: state.application.id, code },
          "local client: the gateway closed the desktop user's session",
        );
      if (state.session === session) state.session = undefined;
    });
    await session.ready;
  }

  private async closeSession(state: AppState): Promise<void> {
    const session = state.session;
    state.session = undefined;
    await session?.close();
  }

  /** The open session of the application (reopened if the gateway dropped it while games run). */
  private async session(application: LinkApplication): Promise<GatewaySession> {
    const state = await this.known(application);
    await state.chain;
    if (!state.session?.open) await this.gameSessions(application, true);
    return state.session!;
  }

  async setActivity(application: LinkApplication, input: ActivityInput | null): Promise<Activity | null> {
    if (input === null && !(await this.known(application)).session?.open) return null; // no session: nothing to clear
    const session = await this.session(application);
    // The gateway's activities carry a name; the platform stamps application_id and created_at itself.
    await session.setPresence(input && { ...input, name: input.name ?? application.name });
    return input && normaliseActivity(input, application, Date.now());
  }

  async checkAuthorize(application: LinkApplication, grant: AuthorizeGrant): Promise<void> {
    await this.endpoint.check(application.id, grant);
  }

  async authorize(application: LinkApplication, grant: AuthorizeGrant): Promise<string> {
    return this.endpoint.code(application.id, grant);
  }

  async authenticate(application: LinkApplication, accessToken: string) {
    let me: { application: { id: string }; scopes: string[]; expires: string; user?: LinkUser };
    try {
      me = await this.http.api('/oauth2/@me', { token: accessToken });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401)
        throw new RpcFailure(RpcError.INVALID_TOKEN, 'Invalid access token');
      throw error;
    }
    // Without `identify` the platform does not say whose token it is: the local client cannot tell it is the desktop
    // user's.
    if (me.application.id !== application.id || !me.user)
      throw new RpcFailure(RpcError.INVALID_TOKEN, 'Invalid access token');
    return { user: me.user, scopes: me.scopes, expiresAt: Date.parse(me.expires) };
  }

  async guild(accessToken: string, guildId: string) {
    const guilds = await this.http
      .api<Array<{ id: string; name: string }>>('/users/@me/guilds', { token: accessToken })
      .catch(() => []);
    const guild = guilds.find((candidate) => candidate.id === guildId);
    return guild && { id: guild.id, name: guild.name };
  }

  async user(application: LinkApplication, userId: string): Promise<LinkUser | undefined> {
    try {
      const user = await this.http.api<LinkUser & { bot?: boolean }>(`/users/${userId}`, {
        token: await this.token(application),
      });
      return user.bot ? undefined : user;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  async sendJoinInvite(application: LinkApplication, recipientId: string): Promise<void> {
    try {
      await this.http.api(`/users/${recipientId}/activity-invites`, {
        token: await this.token(application),
        json: { type: 1 },
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 10013)
        throw new RpcFailure(RpcError.INVALID_USER, 'Invalid User');
      // The platform's refusal (not joinable 80020, blocked 50007, …) keeps its code in the message.
      if (error instanceof ApiError) throw new RpcFailure(RpcError.INVALID_PAYLOAD, `${error.message} (${error.code})`);
      throw error;
    }
  }

  /**
   * A DM of the desktop user: found in a conversation's history (the newest message at or before its id). DMs are
   * read per application family, so every application the local client is signed in for is asked. A lobby
   * message: among the lobby's messages, which only members can read.
   */
  async canSeeMessage(
    application: LinkApplication,
    messageId: string,
    channelId: string | undefined,
  ): Promise<boolean> {
    await this.known(application);
    const before = String(BigInt(messageId) + 1n);
    for (const state of [...this.apps.values()]) {
      const token = (await this.fresh(state)).accessToken;
      const read = <T>(path: string, query?: Record<string, string>) =>
        this.http.api<T>(path, { token, ...(query && { query }) }).catch(() => undefined);
      for (const { user_id } of (await read<Array<{ user_id: string }>>('/users/@me/dms')) ?? []) {
        const history = await read<Array<{ id: string }>>(`/users/@me/dms/${user_id}/messages`, { before, limit: '1' });
        if (history?.[0]?.id === messageId) return true;
      }
      if (channelId !== undefined) {
        const lobby = await read<Array<{ id: string }>>(`/lobbies/${channelId}/messages`, { limit: '200' });
        if (lobby?.some((message) => message.id === messageId)) return true;
      }
    }
    return false;
  }

  async acceptInvite(messageId: string, applicationId?: string) {
    const appId = applicationId ?? this.inviteApps.get(messageId);
    const state = appId !== undefined ? await this.state(appId) : undefined;
    if (!state) throw SocialErrors.unknownMessage();
    const { secret } = await this.http.api<{ secret: string }>(`/users/@me/activity-invites/${messageId}/accept`, {
      token: (await this.fresh(state)).accessToken,
      method: 'POST',
    });
    return { secret, applicationId: state.application.id };
  }

  async spectateSecret(): Promise<string> {
    // Friends see each other's activities without secrets (§10.2); the platform keeps spectate secrets for the
    // local client running in its own process only.
    throw new Error('spectating is only available from the local client started with the platform');
  }

  onInvite(listener: (notice: InviteNotice) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.apps.values()].map((state) => (state.chain = state.chain.then(() => this.closeSession(state)))),
    );
  }

  reopen(): void {
    // Sessions open again with the next game of each application.
  }

  private dispatch(applicationId: string, { t, d }: Dispatch): void {
    if (t === 'READY') {
      for (const presence of ((d as { presences?: unknown[] }).presences ?? []) as PresenceView[])
        this.presence(presence);
    } else if (t === 'PRESENCE_UPDATE') {
      this.presence(d as PresenceView);
    } else if (t === 'ACTIVITY_INVITE_CREATE') {
      void this.invite(applicationId, d as InviteJson).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'local client: an invite could not be read'),
      );
    }
  }

  private presence(view: PresenceView): void {
    for (const key of [...this.friendActivities.keys()])
      if (key.startsWith(`${view.user.id}:`)) this.friendActivities.delete(key);
    for (const activity of view.activities ?? []) {
      if (typeof activity.application_id === 'string')
        this.friendActivities.set(`${view.user.id}:${activity.application_id}`, activity);
    }
  }

  private async invite(applicationId: string, invite: InviteJson): Promise<void> {
    if (this.me && invite.recipient_id !== this.me.id) return;
    if (invite.message_id) this.inviteApps.set(invite.message_id, applicationId);
    const state = this.apps.get(applicationId);
    if (!state) return;
    const sender = await this.user(state.application, invite.sender_id);
    if (!sender) return;
    const notice: InviteNotice = {
      applicationId,
      type: invite.type,
      sender,
      activity: this.friendActivities.get(`${sender.id}:${applicationId}`) ?? null,
      channelId: invite.channel_id ?? null,
      messageId: invite.message_id ?? null,
    };
    for (const listener of this.listeners) listener(notice);
  }
}

interface PresenceView {
  user: { id: string };
  activities?: Activity[];
}

interface InviteJson {
  recipient_id: string;
  sender_id: string;
  type: number;
  channel_id?: string;
  message_id?: string;
}
