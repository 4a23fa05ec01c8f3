import type { ApplicationRecord } from '../store/types.js';

/**
 * Scopes this platform grants. `application.commands` is the specification's spelling; the public one is accepted too.
 */
export const KNOWN_SCOPES = new Set([
  'identify',
  'email',
  'connections',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'gdm.join',
  'openid',
  'identify.premium',
  'relationships.read',
  'application.commands',
  'applications.commands',
  'applications.commands.permissions.update',
  'activities.read',
  'activities.write',
  'presences.read',
  'presences.write',
  'dm_channels.read',
  'messages.read',
  'lobbies.write',
  'voice',
  'sdk.social_layer_presence',
  'sdk.social_layer',
]);

/**
 * The sdk.* scopes "expand automatically to all scopes the integration needs" (spec). The expansion is applied
 * when a scope is checked, so stored grants and the `scope` strings returned keep exactly what was requested.
 */
const EXPANSIONS: Record<string, string[]> = {
  'sdk.social_layer_presence': [
    'identify',
    'relationships.read',
    'activities.read',
    'activities.write',
    'presences.read',
    'presences.write',
  ],
  'sdk.social_layer': [
    'sdk.social_layer_presence',
    'guilds',
    'gdm.join',
    'dm_channels.read',
    'messages.read',
    'lobbies.write',
    'voice',
  ],
};

export function expandScopes(scopes: readonly string[]): Set<string> {
  const result = new Set<string>();
  const visit = (scope: string) => {
    if (result.has(scope)) return;
    result.add(scope);
    for (const implied of EXPANSIONS[scope] ?? []) visit(implied);
  };
  scopes.forEach(visit);
  return result;
}

export function hasScope(granted: readonly string[], scope: string): boolean {
  return expandScopes(granted).has(scope);
}

/** Splits a space-separated scope string; duplicates removed, order kept. */
export function parseScopeString(value: string): string[] {
  return [...new Set(value.split(' ').filter((s) => s.length > 0))];
}

export type ScopeProblem = { scope: string; reason: string };

/**
 * Checks requested scopes against the application's approvals (spec, Authentication):
 * identify.premium needs approval; relationships.read and the sdk.* scopes need the social SDK terms accepted.
 */
export function scopeProblem(
  app: ApplicationRecord,
  scopes: readonly string[],
  grant: 'user' | 'client_credentials',
): ScopeProblem | undefined {
  if (scopes.length === 0) return { scope: '', reason: 'At least one scope is required.' };
  for (const scope of scopes) {
    if (!KNOWN_SCOPES.has(scope)) return { scope, reason: `Invalid scope: ${scope}` };
    if (scope === 'identify.premium' && !app.identifyPremiumApproved) {
      return { scope, reason: 'identify.premium is only available to approved applications.' };
    }
    const social = scope === 'relationships.read' || scope.startsWith('sdk.');
    if (social && !app.socialSdkTermsAccepted) {
      return { scope, reason: `${scope} requires the application to accept the social SDK terms.` };
    }
    if (grant === 'client_credentials' && (scope === 'openid' || scope.startsWith('sdk.'))) {
      return { scope, reason: `${scope} cannot be granted to client credentials.` };
    }
  }
  return undefined;
}
