/**
 * What the local client's protocol layer (server, connection, commands) needs from the platform, and nothing more
 * (PROTOCOL.md §12.8). Two implementations: `InProcessLink` calls the platform's services directly (the local client
 * started with the platform), `RemoteLink` is a signed-in user's client of a platform elsewhere, over its public
 * HTTP API, OAuth2 authorize endpoint and gateway (`svcpp-platform rpc --platform <url>`).
 *
 * Every method either answers or throws an `RpcFailure` with the published RPC error code; a platform refusal keeps
 * the platform's own code in the message, so both implementations answer a game the same way.
 */
import type { Activity, ActivityInput } from '../../social/presence/activity.js';

/** The application a game handshook as. */
export interface LinkApplication {
  id: string;
  name: string;
}

/** A public user object as the HTTP API serves it. */
export type LinkUser = Record<string, unknown> & {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
};

/** AUTHORIZE's grant parameters, already shape-checked by the command. */
export interface AuthorizeGrant {
  scopes: string[];
  redirectUri?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
}

/** A game access token the desktop user's game presented with AUTHENTICATE, as the platform knows it. */
export interface AuthenticatedToken {
  user: LinkUser;
  scopes: string[];
  expiresAt: number;
}

/**
 * Another user's game invite addressed to the desktop user (OURS: the trigger of ACTIVITY_JOIN_REQUEST /
 * ACTIVITY_INVITE).
 */
export interface InviteNotice {
  applicationId: string;
  /** 1 = an invite to join the sender, 5 = the sender asks to join the desktop user. */
  type: number;
  sender: LinkUser;
  /** The sender's current activity of the application (what the desktop user may join), if known. */
  activity: Activity | null;
  channelId: string | null;
  messageId: string | null;
}

export interface PlatformLink {
  /** The desktop user (READY's `user`), fresh. */
  desktopUser(): Promise<LinkUser>;
  /** `config` of READY: where the platform's API is. */
  apiHost(): string;
  /** The application of a handshake's client id; undefined when the platform does not know it. */
  application(clientId: string): Promise<LinkApplication | undefined>;
  /** The first game of an application connected (true) or the last one left (false): a presence session source. */
  gameSessions(application: LinkApplication, open: boolean): Promise<void>;
  /** SET_ACTIVITY: the desktop user's activity for the application; the activity as stored (null = cleared). */
  setActivity(application: LinkApplication, activity: ActivityInput | null): Promise<Activity | null>;
  /** AUTHORIZE's checks that need no consent (scopes, PKCE, redirect URI); throws 4000/5000. */
  checkAuthorize(application: LinkApplication, grant: AuthorizeGrant): Promise<void>;
  /** AUTHORIZE after the desktop user approved: an authorization code redeemable at the token endpoint. */
  authorize(application: LinkApplication, grant: AuthorizeGrant): Promise<string>;
  /**
   * AUTHENTICATE: the token's user, scopes and expiry; throws 4009 for an unknown token or one of another application.
   */
  authenticate(application: LinkApplication, accessToken: string): Promise<AuthenticatedToken>;
  /** GUILD_STATUS: the guild when the token's user (the desktop user) is a member of it. */
  guild(accessToken: string, guildId: string): Promise<{ id: string; name: string } | undefined>;
  /** A non-bot user by id, for commands naming a user; undefined when unknown. */
  user(application: LinkApplication, userId: string): Promise<LinkUser | undefined>;
  /** SEND_ACTIVITY_JOIN_INVITE: a type-1 invite from the desktop user. */
  sendJoinInvite(application: LinkApplication, recipientId: string): Promise<void>;
  /**
   * OPEN_MESSAGE: whether the desktop user can see the message (a DM of theirs, or a message of a lobby they are in).
   */
  canSeeMessage(application: LinkApplication, messageId: string, channelId: string | undefined): Promise<boolean>;
  /**
   * The desktop user presses "Join" on an invite they received: its join secret; the platform's refusal (§10.3) as
   * its `ApiError`. `applicationId` names the invite's application when the link cannot know it otherwise.
   */
  acceptInvite(messageId: string, applicationId?: string): Promise<{ secret: string; applicationId: string }>;
  /** The desktop user presses "Spectate" on a friend's activity: its spectate secret. */
  spectateSecret(hostUserId: string, applicationId: string): Promise<string>;
  /** Invites to the desktop user, as they happen. */
  onInvite(listener: (notice: InviteNotice) => void): void;
  /** Stops listening (the local client closes or restarts); `reopen` undoes it. */
  close(): Promise<void>;
  reopen(): void;
}
