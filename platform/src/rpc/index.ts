/**
 * Starts the local client (PROTOCOL.md §12) next to a running platform's services. The desktop user is required
 * outside development mode; auto-approving AUTHORIZE is a development-only convenience and refused otherwise.
 */
import { platform } from 'node:os';
import { resolveUser } from '../config/references.js';
import type { SocialServices } from '../social/index.js';
import { defaultApplicationsDir } from './launch-registry.js';
import { InProcessLink, type InProcessLinkServices } from './link/in-process.js';
import { RpcServer } from './server.js';
import { defaultSocketDir } from './socket-path.js';

import type { RpcOptions } from './options.js';

export type { RpcOptions } from './options.js';

export type { ConsentRequest } from './consent.js';
export type { Delivery } from './game-events.js';
export { RpcServer } from './server.js';
export { registerDevRpcRoutes } from './dev-routes.js';

export async function startRpcServer(
  ctx: InProcessLinkServices & { options: { devMode: boolean } },
  social: SocialServices,
  options: RpcOptions,
): Promise<RpcServer> {
  const ref = options.user ?? (ctx.options.devMode ? 'dev_user' : undefined);
  if (ref === undefined)
    throw new Error('the local RPC server needs its desktop user (rpc.user / --rpc-user) outside development mode');
  const desktopUser = resolveUser(ctx, ref);
  if (!desktopUser || desktopUser.bot || desktopUser.isProvisional)
    throw new Error(`the local RPC desktop user ${JSON.stringify(ref)} is not a full account`);
  if (options.autoApprove && !ctx.options.devMode) throw new Error('rpc.autoApprove is for development mode only');
  const server = new RpcServer(
    new InProcessLink(ctx, social, desktopUser),
    {
      desktopUserId: () => desktopUser.id,
      desktopUserName: desktopUser.username,
      socketDir: options.socketDir ?? defaultSocketDir(),
      autoApprove: options.autoApprove ?? false,
      applicationsDir: applicationsDir(options.applicationsDir),
    },
    ctx.logger,
    ctx.now,
  );
  await server.listen();
  return server;
}

/** `applicationsDir` as given, `null` = none, default: the XDG one on Linux. */
export function applicationsDir(option: string | null | undefined): string | undefined {
  return option === null ? undefined : (option ?? (platform() === 'linux' ? defaultApplicationsDir() : undefined));
}
