import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord } from '../store/types.js';

/**
 * An application's family: its parent (or itself when it has none) and every child of that parent. Siblings see
 * each other's invites and DMs (PROTOCOL.md §10). Ordered parent first, then children by creation.
 */
export function applicationFamily(ctx: PlatformKernel, app: ApplicationRecord): string[] {
  const root = app.parentId ?? app.id;
  const children = ctx.store.applications
    .list()
    .filter((a) => a.parentId === root)
    .map((a) => a.id);
  return [root, ...children];
}

export function familyOfId(ctx: PlatformKernel, applicationId: string): string[] {
  const app = ctx.store.applications.get(applicationId);
  return app ? applicationFamily(ctx, app) : [applicationId];
}
