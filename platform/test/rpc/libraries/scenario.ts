/**
 * The steps a game takes with a local-RPC client library, scripted once and run against each library from the npm
 * registry the platform is tested with (PROTOCOL.md §12 "RPC client libraries"): the library finds the local client's
 * socket through XDG_RUNTIME_DIR like any game, handshakes, sets rich presence the way its README shows, and clears
 * it; a friend of the desktop user watches over the gateway. Each step is its own test on a fresh connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../support/platform.js';
import { connect, drain, received, type Session } from '../../support/social.js';
import { deskFriend, startRpcPlatform, useRuntimeDir, type RpcPlatform } from '../harness.js';

/** The activity arguments of the classic RPC client's `setActivity` (camel case, flattened party and timestamps). */
export interface ClassicActivity {
  details?: string;
  state?: string;
  startTimestamp?: number;
  endTimestamp?: number;
  partyId?: string;
  partySize?: number;
  partyMax?: number;
  buttons?: Array<{ label: string; url: string }>;
}

export interface RpcLibrary {
  /** Connects and handshakes (no OAuth2); resolves to the user READY names. */
  connect(clientId: string): Promise<{ userId: string }>;
  setActivity(activity: ClassicActivity): Promise<void>;
  clearActivity(): Promise<void>;
  destroy(): Promise<void>;
}

type Activity = Record<string, unknown>;

/** The client classes of the classic RPC client and its forks: the same calls. */
export interface ClassicClient {
  login(options: { clientId: string }): Promise<unknown>;
  user?: { id: string } | undefined;
  setActivity(activity: ClassicActivity): Promise<unknown>;
  clearActivity(): Promise<unknown>;
  destroy(): Promise<void>;
}

/** The scenario's calls through a classic client's public API. */
export function classicRpcLibrary(client: ClassicClient): RpcLibrary {
  return {
    connect: async (clientId) => {
      await client.login({ clientId });
      return { userId: client.user!.id };
    },
    setActivity: async (activity) => void (await client.setActivity(activity)),
    clearActivity: async () => void (await client.clearActivity()),
    destroy: () => client.destroy(),
  };
}

export function rpcLibraryScenario(name: string, make: () => RpcLibrary): void {
  describe(`${name}, unmodified, against the local client`, () => {
    let env: RpcPlatform;
    let restoreRuntimeDir: () => void = () => undefined;

    beforeAll(async () => {
      env = await startRpcPlatform();
      restoreRuntimeDir = useRuntimeDir(env.dir);
    });
    afterAll(async () => {
      restoreRuntimeDir();
      await env.close();
    });

    /** A game of its own, a friend watching, and the library connected for it. */
    let games = 0;
    async function game() {
      const appName = `${name} game ${++games}`;
      const app = await createApp(env.platform, { name: appName, public_client: true });
      const friend = await deskFriend(env);
      const watcher: Session = await connect(env.platform, friend);
      const lib = make();
      const ready = await lib.connect(app.id);
      await drain(env.platform, watcher);
      const seen = async (): Promise<Activity[] | undefined> => {
        const updates = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{
          user: { id: string };
          activities: Activity[];
        }>;
        return updates.filter((u) => u.user.id === env.desk.id).at(-1)?.activities;
      };
      return {
        app,
        appName,
        lib,
        ready,
        seen,
        close: async () => {
          await lib.destroy();
          await watcher.client.close();
        },
      };
    }

    it('handshakes and reads the desktop user from READY', async () => {
      const g = await game();
      expect(g.ready.userId).toBe(env.desk.id);
      await g.close();
    });

    it('sets details, state and timestamps (no type, as its README shows); the friend sees Playing', async () => {
      const g = await game();
      const start = Date.now();
      await g.lib.setActivity({ details: 'In a match', state: 'Round 2', startTimestamp: start });
      expect(await g.seen()).toEqual([
        expect.objectContaining({
          type: 0,
          name: g.appName,
          application_id: g.app.id,
          details: 'In a match',
          state: 'Round 2',
          timestamps: { start },
        }),
      ]);
      await g.close();
    });

    it('sets buttons; the friend sees their labels', async () => {
      const g = await game();
      await g.lib.setActivity({
        details: 'Buttons',
        buttons: [
          { label: 'Watch', url: 'https://example.com/watch' },
          { label: 'Join', url: 'https://example.com/join' },
        ],
      });
      const buttons = (await g.seen())?.[0]?.buttons as Array<string | { label: string }> | undefined;
      expect(buttons?.map((b) => (typeof b === 'string' ? b : b.label))).toEqual(['Watch', 'Join']);
      await g.close();
    });

    it('sets a party; the friend sees its size', async () => {
      const g = await game();
      await g.lib.setActivity({
        details: 'Party',
        state: 'Looking for group',
        partyId: 'party-1',
        partySize: 2,
        partyMax: 4,
      });
      expect(await g.seen()).toEqual([expect.objectContaining({ party: { id: 'party-1', size: [2, 4] } })]);
      await g.close();
    });

    it('clears the activity; the friend sees none', async () => {
      const g = await game();
      await g.lib.setActivity({ details: 'About to clear' });
      await g.lib.clearActivity();
      expect(await g.seen()).toEqual([]);
      await g.close();
    });
  });
}
