/**
 * URL mappings in the platform config (`applications[].url_mappings`, PROTOCOL.md §18.2): when given, they replace
 * the application's mappings on every start (the config is the source of truth); when absent, mappings set through
 * the development route are kept.
 */
import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord } from '../store/types.js';
import type { UrlMappingRecord } from '../store/activity-types.js';

export function applyConfiguredUrlMappings(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  mappings: readonly UrlMappingRecord[] | undefined,
): void {
  if (mappings === undefined) return;
  ctx.store.activities.setUrlMappings(
    app.id,
    mappings.map(({ prefix, target }) => ({ prefix, target })),
  );
}
