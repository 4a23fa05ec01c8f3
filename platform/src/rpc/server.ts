/**
 * The local client (PROTOCOL.md §12): the IPC server games connect to, acting for one signed-in platform user (the
 * desktop user). While at least one game of an application is connected the desktop user counts as present for
 * that application (a session source for the presence service, like a gateway session), so the activities games set
 * reach friends exactly as op 3 would. Everything it asks of the platform goes through one `PlatformLink` (§12.8):
 * the platform's services in process, or its public HTTP API and gateway from a process of its own.
 */
import { unlinkSync } from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';
import { RpcClose, RpcError } from './codes.js';
import { authenticate, authorize } from './commands/oauth.js';
import { closeActivityRequest, sendActivityJoinInvite, setActivity } from './commands/activity.js';
import { openConnectedGamesSettings, openMessage, setShowingChat } from './commands/desktop.js';
import { registerLaunchCommand } from './commands/launch.js';
import { shareLink } from './commands/share-link.js';
import { subscribe, unsubscribe } from './commands/subscriptions.js';
import type { CommandHandler, CommandResult, RpcEnvironment } from './commands/types.js';
import { RpcConnection, RpcFailure, type CommandPayload, type ConnectionHost } from './connection.js';
import { ConsentQueue } from './consent.js';
import { DesktopUi } from './desktop-ui.js';
import { GameEvents, type Delivery } from './game-events.js';
import { LaunchRegistry } from './launch-registry.js';
import type { InviteNotice, LinkApplication, PlatformLink } from './link/platform-link.js';
import { listenOnFirstFreeSlot } from './socket-path.js';
import { isSnowflake } from '../ids/snowflake.js';

const COMMANDS: Record<string, CommandHandler> = {
  AUTHORIZE: authorize,
  AUTHENTICATE: authenticate,
  SET_ACTIVITY: setActivity,
  SUBSCRIBE: subscribe,
  UNSUBSCRIBE: unsubscribe,
  SEND_ACTIVITY_JOIN_INVITE: sendActivityJoinInvite,
  CLOSE_ACTIVITY_REQUEST: closeActivityRequest,
  // What published clients send for the same thing (the docs name CLOSE_ACTIVITY_REQUEST; PROTOCOL.md §12.3).
  CLOSE_ACTIVITY_JOIN_REQUEST: closeActivityRequest,
  REGISTER_LAUNCH_COMMAND: registerLaunchCommand,
  OPEN_MESSAGE: openMessage,
  OPEN_CONNECTED_GAMES_SETTINGS: openConnectedGamesSettings,
  SET_SHOWING_CHAT: setShowingChat,
  SHARE_LINK: shareLink,
};

const JOIN = 1;
const JOIN_REQUEST = 5;

export interface RpcServerConfig {
  /** Known at start in process; a standalone local client learns it when it signs in. */
  desktopUserId: () => string;
  /** The desktop user's name, for the log. */
  desktopUserName: string;
  socketDir: string;
  autoApprove: boolean;
  applicationsDir: string | undefined;
}

export class RpcServer implements ConnectionHost {
  readonly consent: ConsentQueue;
  readonly launches: LaunchRegistry;
  readonly events: GameEvents;
  /** What games asked the desktop client to show (OPEN_MESSAGE, …) and which of them show chat. */
  readonly desktop = new DesktopUi();
  path = '';
  private readonly server = net.createServer();
  private readonly byApp = new Map<string, Set<RpcConnection>>();
  private readonly all = new Set<RpcConnection>();
  private readonly env: RpcEnvironment;
  private readonly logger: Logger;

  constructor(
    readonly link: PlatformLink,
    private readonly config: RpcServerConfig,
    logger: Logger,
    now: () => number = Date.now,
  ) {
    this.logger = logger.child({ area: 'rpc' });
    this.consent = new ConsentQueue(config.autoApprove);
    this.launches = new LaunchRegistry(config.applicationsDir);
    this.events = new GameEvents(this.launches, (applicationId) => this.byApp.get(applicationId) ?? []);
    this.env = {
      link,
      desktopUserId: config.desktopUserId,
      now,
      consent: this.consent,
      launches: this.launches,
      desktop: this.desktop,
      subscribed: (connection, evt) => this.events.subscribed(connection, evt),
    };
    this.server.on('connection', (socket) => {
      const connection = new RpcConnection(socket, this);
      this.all.add(connection);
      void connection.gone.then(() => this.all.delete(connection));
    });
    this.server.on('error', (error) => this.logger.error({ err: error }, 'local RPC server error'));
    link.onInvite((notice) => this.invited(notice));
  }

  get desktopUserId(): string {
    return this.config.desktopUserId();
  }

  async listen(): Promise<string> {
    this.path = await listenOnFirstFreeSlot(this.server, this.config.socketDir);
    // Launched games find this instance even when several run (tests) or the environment differs.
    this.launches.setEnv({ SVCPP_IPC_PATH: this.path });
    this.link.reopen();
    this.logger.info({ path: this.path, user: this.config.desktopUserName }, 'local RPC listening');
    return this.path;
  }

  /**
   * The desktop user started linking their account with a game from the desktop client (OURS): the running games of
   * the application that subscribed to AUTHORIZE_REQUEST are asked to start the authorization (the SDK's
   * RegisterAuthorizeRequestCallback). Returns how many got it; nothing is kept when no game listens.
   */
  requestAuthorize(applicationId: string): number {
    return this.events.deliver(applicationId, 'AUTHORIZE_REQUEST', {});
  }

  /**
   * Stops and starts the local client again, as when the desktop client restarts: every game is disconnected, and
   * what lived in memory (launch commands, kept events, pending consent) is gone; games reconnect and register anew.
   */
  async restart(): Promise<string> {
    await this.close();
    this.launches.clear();
    this.events.clear();
    return this.listen();
  }

  /** The desktop user clicked "Join" on a game invite they received: the game gets the join secret. */
  async acceptInvite(
    messageId: string,
    inviteApplicationId?: string,
  ): Promise<{ secret: string; applicationId: string; delivery: Delivery }> {
    const { secret, applicationId } = await this.link.acceptInvite(messageId, inviteApplicationId);
    return { secret, applicationId, delivery: this.events.deliverOrLaunch(applicationId, 'ACTIVITY_JOIN', { secret }) };
  }

  /** The desktop user clicked "Spectate" on a friend's activity: the game gets its spectate secret. */
  async spectate(hostUserId: string, applicationId: string): Promise<{ secret: string; delivery: Delivery }> {
    const secret = await this.link.spectateSecret(hostUserId, applicationId);
    return { secret, delivery: this.events.deliverOrLaunch(applicationId, 'ACTIVITY_SPECTATE', { secret }) };
  }

  async close(): Promise<void> {
    await this.link.close();
    this.consent.denyAll();
    for (const connection of [...this.all]) connection.close(RpcClose.NORMAL, 'The local client is shutting down');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.path && process.platform !== 'win32') {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone (net.Server removes its socket file on close on most systems).
      }
    }
  }

  // ConnectionHost

  application(clientId: string): Promise<LinkApplication | undefined> {
    return isSnowflake(clientId) ? this.link.application(clientId) : Promise.resolve(undefined);
  }

  async opened(connection: RpcConnection): Promise<unknown> {
    const app = connection.app!;
    let set = this.byApp.get(app.id);
    const first = !set;
    if (!set) {
      set = new Set();
      this.byApp.set(app.id, set);
    }
    set.add(connection);
    if (first) await this.link.gameSessions(app, true);
    const user = await this.link.desktopUser();
    const host = this.link.apiHost();
    return {
      v: 1,
      // `api_endpoint` is protocol-relative like the published one; it points at the platform.
      config: { cdn_host: host, api_endpoint: `//${host}/api`, environment: 'production' },
      user: {
        id: user.id,
        username: user.username,
        discriminator: '0',
        global_name: user.global_name ?? null,
        avatar: user.avatar ?? null,
        bot: false,
        flags: 0,
        premium_type: 0,
      },
    };
  }

  closed(connection: RpcConnection): void {
    const app = connection.app!;
    const set = this.byApp.get(app.id);
    this.desktop.forget(connection);
    if (!set?.delete(connection)) return;
    const others = [...set];
    const last = set.size === 0;
    if (last) this.byApp.delete(app.id);
    void (async () => {
      // Like the published client: a game's activity goes with the game (unless another instance of it set one since).
      if (connection.setActivity && !others.some((other) => other.setActivity)) await this.link.setActivity(app, null);
      if (last) await this.link.gameSessions(app, false);
    })().catch((error: unknown) =>
      this.logger.warn({ err: error, application: app.id }, 'local RPC: ending the game session failed'),
    );
  }

  async command(connection: RpcConnection, payload: CommandPayload): Promise<CommandResult> {
    const handler = Object.hasOwn(COMMANDS, payload.cmd) ? COMMANDS[payload.cmd] : undefined;
    if (!handler) throw new RpcFailure(RpcError.INVALID_COMMAND, `Invalid command: ${payload.cmd}`);
    try {
      return await handler(this.env, connection as Parameters<CommandHandler>[1], payload);
    } catch (error) {
      if (error instanceof RpcFailure) throw error;
      this.logger.error({ err: error, cmd: payload.cmd }, 'local RPC command failed');
      throw new RpcFailure(RpcError.UNKNOWN, 'Unknown Error');
    }
  }

  /**
   * Invites sent to the desktop user reach the games of that application: a join request (type 5) as
   * ACTIVITY_JOIN_REQUEST `{user}`, an invite to join (type 1) as ACTIVITY_INVITE `{type, user, activity,
   * channel_id, message_id}` (the game can show it; accepting is the desktop user's "Join", `acceptInvite`).
   */
  private invited(notice: InviteNotice): void {
    if (notice.type === JOIN_REQUEST) {
      this.events.deliver(notice.applicationId, 'ACTIVITY_JOIN_REQUEST', { user: notice.sender });
    } else if (notice.type === JOIN) {
      this.events.deliver(notice.applicationId, 'ACTIVITY_INVITE', {
        type: JOIN,
        user: notice.sender,
        activity: notice.activity,
        channel_id: notice.channelId,
        message_id: notice.messageId,
      });
    }
  }
}
