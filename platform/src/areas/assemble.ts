import type { FastifyInstance } from 'fastify';
import type { AccountMover, GatewayHandlers, PlatformArea } from './area.js';

export interface AssembledAreas {
  /** The areas' gateway handlers, in the areas' order. */
  gateway: readonly GatewayHandlers[];
  /** The areas' account movers, in the areas' order. */
  accountMovers: readonly AccountMover[];
}

/**
 * Refuses a list whose names repeat or whose dependencies are not met. As with fastify-plugin, a dependency must come
 * earlier in the list: a missing one and a circle (someone's dependency always comes after it) are both refused.
 */
export function checkAreas(areas: readonly PlatformArea[]): void {
  const seen = new Set<string>();
  const all = new Set(areas.map((area) => area.name));
  for (const area of areas) {
    if (seen.has(area.name)) throw new Error(`platform area "${area.name}" is assembled twice`);
    for (const dependency of area.dependencies ?? []) {
      if (!all.has(dependency))
        throw new Error(`platform area "${area.name}" needs area "${dependency}", which is not assembled`);
      if (!seen.has(dependency))
        throw new Error(
          `platform area "${area.name}" needs area "${dependency}", which comes after it (a circle of dependencies?)`,
        );
    }
    seen.add(area.name);
  }
}

/**
 * The one loop that puts the areas together, in their order: routes and request hooks (fastify applies hooks in
 * registration order), close hooks (fastify runs them in the reverse order), gateway handlers and account movers.
 */
export function assembleAreas(app: FastifyInstance, areas: readonly PlatformArea[]): AssembledAreas {
  checkAreas(areas);
  const gateway: GatewayHandlers[] = [];
  const accountMovers: AccountMover[] = [];
  for (const area of areas) {
    area.routes?.(app);
    if (area.close) {
      const close = area.close.bind(area);
      app.addHook('onClose', async () => close());
    }
    if (area.gateway) gateway.push(area.gateway);
    accountMovers.push(...(area.accountMovers ?? []));
  }
  return { gateway, accountMovers };
}

/**
 * The gateway's hooks as one call each, fanned out to the areas' handlers (`handlers` is read at each call: the
 * gateway is built before the areas it serves are assembled). READY extras merge in order; the first presence or
 * command handler with an answer owns it; every session handler sees every change.
 */
export function gatewayFanOut(handlers: () => readonly GatewayHandlers[]): Required<GatewayHandlers> {
  return {
    readyExtras: (identity) => Object.assign({}, ...handlers().map((area) => area.readyExtras?.(identity) ?? {})),
    userPresence: (identity, presence) => {
      for (const area of handlers()) {
        const outcome = area.userPresence?.(identity, presence);
        if (outcome) return outcome;
      }
      return false;
    },
    sessionsChanged: (change) => handlers().forEach((area) => area.sessionsChanged?.(change)),
    sessionsObserved: (change) => handlers().forEach((area) => area.sessionsObserved?.(change)),
    identified: (session) => handlers().forEach((area) => area.identified?.(session)),
    command: (command) => {
      for (const area of handlers()) {
        const outcome = area.command?.(command);
        if (outcome) return outcome;
      }
      return false;
    },
  };
}
