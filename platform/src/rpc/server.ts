/**
 * The local client (PROTOCOL.md §12): the IPC server games connect to, acting for one signed-in platform user (the
 * desktop user). While at least one game of an application is connected the desktop user counts as present for
 * that application (a session source for the presence service, like a gateway session), so the activities games set
 * reach friends exactly as op 3 would.
 */
import { unlinkSync } from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';
import type { PlatformContext } from '../context.js';
import type { BusEvent } from '../events/bus.js';
import { SocialErrors } from '../social/errors.js';
import type { SocialServices } from '../social/index.js';
import type { ApplicationRecord, UserRecord } from '../store/types.js';
import { userJson } from '../users/serialize.js';
import { RpcClose, RpcError } from './codes.js';
import { authenticate, authorize } from './commands/oauth.js';
import { closeActivityRequest, sendActivityJoinInvite, setActivity } from './commands/activity.js';
import { openConnectedGamesSettings, openMessage, setShowingChat } from './commands/desktop.js';
import { registerLaunchCommand } from './commands/launch.js';
import { subscribe, unsubscribe } from './commands/subscriptions.js';
import type { CommandHandler, CommandResult, RpcEnvironment } from './commands/types.js';
import { RpcConnection, RpcFailure, type CommandPayload, type ConnectionHost } from './connection.js';
import { ConsentQueue } from './consent.js';
import { DesktopUi } from './desktop-ui.js';
import { GameEvents, type Delivery } from './game-events.js';
import { LaunchRegistry } from './launch-registry.js';
import { listenOnFirstFreeSlot } from './socket-path.js';

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
};

const JOIN = 1;
const JOIN_REQUEST = 5;

export interface RpcServerConfig {
  desktopUser: UserRecord;
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
  private unsubscribeBus: (() => void) | undefined;

  constructor(
    private readonly ctx: PlatformContext,
    private readonly social: SocialServices,
    private readonly config: RpcServerConfig,
  ) {
    this.logger = ctx.logger.child({ area: 'rpc' });
    this.consent = new ConsentQueue(config.autoApprove);
    this.launches = new LaunchRegistry(config.applicationsDir);
    this.events = new GameEvents(this.launches, (applicationId) => this.byApp.get(applicationId) ?? []);
    this.env = {
      ctx,
      social,
      desktopUser: () => ctx.store.users.get(config.desktopUser.id) ?? config.desktopUser,
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
  }

  get desktopUserId(): string {
    return this.config.desktopUser.id;
  }

  async listen(): Promise<string> {
    this.path = await listenOnFirstFreeSlot(this.server, this.config.socketDir);
    // Launched games find this instance even when several run (tests) or the environment differs.
    this.launches.setEnv({ SVCPP_IPC_PATH: this.path });
    this.unsubscribeBus = this.ctx.bus.subscribe((event) => this.busEvent(event));
    this.logger.info({ path: this.path, user: this.config.desktopUser.username }, 'local RPC listening');
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
  acceptInvite(messageId: string): { secret: string; applicationId: string; delivery: Delivery } {
    const message = /^\d{1,20}$/.test(messageId) ? this.ctx.store.directMessages.get(messageId) : undefined;
    const app = message ? this.ctx.store.applications.get(message.applicationId) : undefined;
    if (!message || !app) throw SocialErrors.unknownMessage();
    const { secret } = this.social.invites.accept(app, this.env.desktopUser(), messageId);
    return { secret, applicationId: app.id, delivery: this.events.deliverOrLaunch(app.id, 'ACTIVITY_JOIN', { secret }) };
  }

  /** The desktop user clicked "Spectate" on a friend's activity: the game gets its spectate secret. */
  spectate(hostUserId: string, applicationId: string): { secret: string; delivery: Delivery } {
    const secret = this.social.presence.activity(hostUserId, applicationId)?.secrets?.spectate;
    if (secret === undefined) throw new Error('the activity has no spectate secret');
    return { secret, delivery: this.events.deliverOrLaunch(applicationId, 'ACTIVITY_SPECTATE', { secret }) };
  }

  async close(): Promise<void> {
    this.unsubscribeBus?.();
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

  application(clientId: string): ApplicationRecord | undefined {
    return /^\d{1,20}$/.test(clientId) ? this.ctx.store.applications.get(clientId) : undefined;
  }

  readyPayload(): unknown {
    const user = this.env.desktopUser();
    const api = new URL(this.ctx.urls.api);
    return {
      v: 1,
      // `api_endpoint` is protocol-relative like the published one; it points at this platform.
      config: { cdn_host: api.host, api_endpoint: `//${api.host}/api`, environment: 'production' },
      user: { id: user.id, username: user.username, discriminator: '0', global_name: user.globalName, avatar: user.avatar, bot: false, flags: 0, premium_type: 0 },
    };
  }

  opened(connection: RpcConnection): void {
    const appId = connection.app!.id;
    let set = this.byApp.get(appId);
    if (!set) {
      set = new Set();
      this.byApp.set(appId, set);
      this.social.presence.sessionsChanged(this.desktopUserId, appId, true);
    }
    set.add(connection);
  }

  closed(connection: RpcConnection): void {
    const appId = connection.app!.id;
    const set = this.byApp.get(appId);
    this.desktop.forget(connection);
    if (!set?.delete(connection)) return;
    const others = [...set];
    // Like the published client: a game's activity goes with the game (unless another instance of it set one since).
    if (connection.setActivity && !others.some((other) => other.setActivity)) {
      this.social.presence.update(this.desktopUserId, appId, { activity: null });
    }
    if (set.size === 0) {
      this.byApp.delete(appId);
      this.social.presence.sessionsChanged(this.desktopUserId, appId, false);
    }
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
   * Invites sent to the desktop user over HTTP reach the games of that application: a join request (type 5) as
   * ACTIVITY_JOIN_REQUEST `{user}`, an invite to join (type 1) as ACTIVITY_INVITE `{type, user, activity,
   * channel_id, message_id}` (the game can show it; accepting is the desktop user's "Join", `acceptInvite`).
   */
  private busEvent(event: BusEvent): void {
    if (event.t !== 'ACTIVITY_INVITE_CREATE' || !event.to.applicationId) return;
    const invite = event.d as { recipient_id: string; sender_id: string; type: number; channel_id?: string; message_id?: string };
    if (invite.recipient_id !== this.desktopUserId) return;
    const sender = this.ctx.store.users.get(invite.sender_id);
    if (!sender) return;
    if (invite.type === JOIN_REQUEST) {
      this.events.deliver(event.to.applicationId, 'ACTIVITY_JOIN_REQUEST', { user: userJson(this.ctx, sender) });
    } else if (invite.type === JOIN) {
      const activity = this.social.presence.activity(sender.id, event.to.applicationId) ?? null;
      this.events.deliver(event.to.applicationId, 'ACTIVITY_INVITE', {
        type: JOIN,
        user: userJson(this.ctx, sender),
        activity,
        channel_id: invite.channel_id ?? null,
        message_id: invite.message_id ?? null,
      });
    }
  }
}
