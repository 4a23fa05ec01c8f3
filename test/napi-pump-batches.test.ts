// The N-API pump drains in bounded batches (native/SEMANTICS.md "Pump batches"): at most 256 callbacks per turn of the
// event loop, the rest on the next turns, in order — so a burst of events never holds the loop. N-API only: koffi
// pumps from its own timer.
import { executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { Client } from '../lib/index.js';
import { loadBackend } from '../lib/loader.js';
import { until } from './e2e/support.js';

const LINES = 1000;

describe('N-API pump batches', () => {
  it('a burst drains over several turns of the event loop, every callback once and in order', async () => {
    const client = new Client({ backend: 'napi' });
    try {
      const timeouts: number[] = [];
      let deliveredBeforeTheLoopRan: number | undefined;
      client.on('log', (message) => {
        const match = /^HTTP request timeout set to (\d+) ms$/.exec(message);
        if (!match) return;
        // The first event asks the loop for a turn: it comes once the first batch is over, not after the burst.
        if (timeouts.length === 0) setImmediate(() => (deliveredBeforeTheLoopRan = timeouts.length));
        timeouts.push(Number(match[1]));
      });
      for (let ms = 1; ms <= LINES; ms++) client.httpRequestTimeoutMs = ms; // each one queues a log line
      await until(() => timeouts.length === LINES, 'every line delivered');
      expect(timeouts).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
      expect(deliveredBeforeTheLoopRan).toBeGreaterThan(0);
      expect(deliveredBeforeTheLoopRan).toBeLessThanOrEqual(256);
    } finally {
      await client.close();
    }
  });

  it('a handler runs in a callback scope, like any callback from the event loop: async_hooks see its async context', async () => {
    const client = new Client({ backend: 'napi' });
    try {
      // Outside any callback scope (a bare libuv callback) the execution async id is 0.
      const asyncId = new Promise<number>((resolve) => client.on('log', () => resolve(executionAsyncId())));
      client.httpRequestTimeoutMs = 1234; // queues a log line
      expect(await asyncId).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('Client_RunCallbacksUpTo runs at most its bound; 0 is refused with ERR_SVCPP_INVALID_ARGUMENT', () => {
    const api = loadBackend('napi');
    const client = api.Client_Init();
    try {
      const lines: string[] = [];
      api.Client_AddLogCallback(client, 2 /* Info */, (message) => lines.push(message));
      for (let ms = 1; ms <= 5; ms++) api.Client_SetHttpRequestTimeout(client, ms);
      expect(() => api.Client_RunCallbacksUpTo(client, 0)).toThrow(
        expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
      );
      api.Client_RunCallbacksUpTo(client, 2);
      expect(lines).toEqual(['HTTP request timeout set to 1 ms', 'HTTP request timeout set to 2 ms']);
      expect(api.Client_HasPendingCallbacks(client)).toBe(true);
      api.Client_RunCallbacksUpTo(client, 10);
      expect(lines).toHaveLength(5);
      expect(api.Client_HasPendingCallbacks(client)).toBe(false);
    } finally {
      api.Client_Drop(client);
    }
  });
});
