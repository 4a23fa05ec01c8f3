/**
 * The local client in a process of its own (`svcpp-platform rpc --platform <url>`, PROTOCOL.md §12.8): the same
 * IPC server and protocol as the in-process one, talking to a platform elsewhere as a signed-in user through a
 * `RemoteLink`.
 */
import type { Logger } from 'pino';
import { applicationsDir } from './index.js';
import type { Credentials } from './link/remote/authorize-endpoint.js';
import { RemoteLink } from './link/remote/remote-link.js';
import { RpcServer } from './server.js';
import { defaultSocketDir } from './socket-path.js';

export interface StandaloneRpcOptions {
  /** The platform's base URL (`http://127.0.0.1:8787`). */
  platformUrl: string;
  /** The desktop user's sign-in (the consent page's username and password). */
  credentials: Credentials;
  /**
   * An application to sign in with at start, so wrong credentials or an unreachable platform fail the start rather
   * than the first game (any application the user may authorize: the platform's development application will do).
   */
  signInApplication?: string;
  socketDir?: string;
  /** Approve every AUTHORIZE without asking (development use; the platform still checks every grant). */
  autoApprove?: boolean;
  applicationsDir?: string | null;
  logger: Logger;
}

export async function startStandaloneRpc(options: StandaloneRpcOptions): Promise<RpcServer> {
  const link = new RemoteLink(options.platformUrl, options.credentials, options.logger);
  if (options.signInApplication !== undefined) await link.signIn(options.signInApplication);
  const server = new RpcServer(
    link,
    {
      desktopUserId: () => link.desktopUserId,
      desktopUserName: options.credentials.username,
      socketDir: options.socketDir ?? defaultSocketDir(),
      autoApprove: options.autoApprove ?? false,
      applicationsDir: applicationsDir(options.applicationsDir),
    },
    options.logger,
  );
  await server.listen();
  return server;
}
