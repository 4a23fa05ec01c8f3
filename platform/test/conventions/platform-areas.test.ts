/**
 * The shape of the platform (README "Layout and tests"): areas are modules that startPlatform assembles in one list.
 * The assembly refuses unmet dependencies, keeps the list's order for routes, gateway handlers and account movers
 * (and closes in the reverse one); the gateway's fan-out merges and chooses as the list says; the kernel reaches no
 * area; the start options reach an area only as the slice startPlatform hands it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { GatewayHandlers, PlatformArea } from '../../src/areas/area.js';
import { assembleAreas, checkAreas, gatewayFanOut } from '../../src/areas/assemble.js';
import type { GatewayCommand, GatewayIdentity, SessionsChange } from '../../src/gateway/types.js';
import { importGraph } from '../../../test/support/import-graph.js';
import { SRC, sourceFiles } from '../support/sources.js';

const area = (name: string, dependencies?: string[]): PlatformArea => ({ name, ...(dependencies && { dependencies }) });
const user: GatewayIdentity = { kind: 'user', applicationId: 'app', userId: 'erin', scopes: [], user: { id: 'erin' } };

describe('checkAreas', () => {
  it('takes a list whose dependencies all come earlier', () => {
    expect(() => checkAreas([area('a'), area('b', ['a']), area('c', ['a', 'b'])])).not.toThrow();
  });

  it('refuses an area whose dependency is missing', () => {
    expect(() => checkAreas([area('a'), area('voice', ['bot-api'])])).toThrow(
      'platform area "voice" needs area "bot-api", which is not assembled',
    );
  });

  it('refuses a circle of dependencies (one of them always comes later)', () => {
    expect(() => checkAreas([area('a', ['b']), area('b', ['a'])])).toThrow(
      'platform area "a" needs area "b", which comes after it (a circle of dependencies?)',
    );
  });

  it('refuses an area that depends on itself', () => {
    expect(() => checkAreas([area('a', ['a'])])).toThrow('platform area "a" needs area "a", which comes after it');
  });

  it('refuses a name given twice', () => {
    expect(() => checkAreas([area('a'), area('a')])).toThrow('platform area "a" is assembled twice');
  });
});

describe('assembleAreas', () => {
  it('registers routes, gateway handlers and account movers in the list order; closes in the reverse order', async () => {
    const app = Fastify();
    const seen: string[] = [];
    const module = (name: string): PlatformArea => ({
      name,
      routes: () => seen.push(`routes ${name}`),
      gateway: { identified: () => seen.push(`identified ${name}`) },
      accountMovers: [{ name: `${name} data` }],
      close: () => {
        seen.push(`close ${name}`);
      },
    });
    const assembled = assembleAreas(app, [module('first'), area('quiet'), module('second')]);
    expect(seen).toEqual(['routes first', 'routes second']);
    expect(assembled.accountMovers.map((mover) => mover.name)).toEqual(['first data', 'second data']);
    expect(assembled.gateway).toHaveLength(2);
    await app.close();
    expect(seen).toEqual(['routes first', 'routes second', 'close second', 'close first']);
  });

  it('registers nothing when the list is refused', () => {
    const app = Fastify();
    let registered = false;
    const list: PlatformArea[] = [{ name: 'a', routes: () => (registered = true) }, area('b', ['missing'])];
    expect(() => assembleAreas(app, list)).toThrow('needs area "missing"');
    expect(registered).toBe(false);
  });
});

describe('gatewayFanOut', () => {
  const command = { op: 8, d: {}, session: {} } as GatewayCommand;

  it('merges READY extras in the list order (a later area overrides a field of an earlier one)', () => {
    const fanOut = gatewayFanOut(() => [
      { readyExtras: () => ({ lobbies: [1], guilds: [] }) },
      {},
      { readyExtras: () => ({ lobbies: [2] }) },
    ]);
    expect(fanOut.readyExtras(user)).toEqual({ lobbies: [2], guilds: [] });
  });

  it('gives a command to the first handler with an answer; nobody answering is false', () => {
    const asked: string[] = [];
    const handler = (name: string, answer: boolean | 'invalid'): GatewayHandlers => ({
      command: () => {
        asked.push(name);
        return answer;
      },
    });
    expect(
      gatewayFanOut(() => [handler('a', false), handler('b', 'invalid'), handler('c', true)]).command(command),
    ).toBe('invalid');
    expect(asked).toEqual(['a', 'b']);
    expect(gatewayFanOut(() => [handler('d', false)]).command(command)).toBe(false);
  });

  it('gives a presence update to the first handler that owns it', () => {
    const fanOut = gatewayFanOut(() => [
      { userPresence: () => false },
      { userPresence: () => true },
      { userPresence: () => 'invalid' },
    ]);
    expect(fanOut.userPresence(user, { status: 'online' } as never)).toBe(true);
  });

  it('shows every session change to every handler, in order, and reads the handlers at each call', () => {
    const seen: string[] = [];
    let handlers: GatewayHandlers[] = [];
    const fanOut = gatewayFanOut(() => handlers);
    const change: SessionsChange = {
      kind: 'user',
      userId: 'erin',
      applicationId: 'app',
      present: true,
      fromHistory: false,
    };
    fanOut.sessionsChanged(change);
    handlers = [
      { sessionsChanged: () => seen.push('a'), sessionsObserved: () => seen.push('a observed') },
      { sessionsChanged: () => seen.push('b') },
    ];
    fanOut.sessionsChanged(change);
    fanOut.sessionsObserved(change);
    expect(seen).toEqual(['a', 'b', 'a observed']);
  });
});

describe('the kernel', () => {
  /** The files `file` reaches through its relative imports, type-only ones included. */
  function reached(file: string, found = new Set<string>()): Set<string> {
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/gm)) {
      const target = resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts'));
      if (!found.has(target)) reached(target, found.add(target));
    }
    return found;
  }

  it('reaches no area: only the store, ids and the event bus', () => {
    const folders = new Set([...reached(join(SRC, 'kernel.ts'))].map((file) => relative(SRC, file).split('/')[0]));
    expect([...folders].sort()).toEqual(['events', 'ids', 'store']);
  });
});

describe('the start options', () => {
  it('are read by startPlatform alone: no other module imports src/options.ts', () => {
    const options = join(SRC, 'options.ts');
    const importers = [...importGraph(sourceFiles(SRC))]
      .filter(([, edges]) => edges.some((edge) => edge.target === options))
      .map(([file]) => relative(SRC, file));
    expect(importers).toEqual(['index.ts']);
  });
});
