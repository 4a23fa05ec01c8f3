/** POST /api/v10/dev/gateway/dispatch: bus dispatches on demand, for benchmarks and SDK tests. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { RawClient } from '../gateway/client.js';
import { bot, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';

describe('dev gateway dispatch', () => {
  let platform: RunningPlatform;
  const dispatch = (json: unknown) => request(`${platform.apiBase}/dev/gateway/dispatch`, { json });

  /** A provisional user of the dev application with an identified gateway session. */
  async function session(externalId: string): Promise<{ client: RawClient; userId: string }> {
    const token = await request(`${platform.apiBase}/partner-sdk/token/bot`, {
      headers: bot(platform.devApp.botToken),
      json: { external_user_id: externalId },
    });
    expect(token.status, token.text).toBe(200);
    const client = await RawClient.open(platform.gatewayUrl);
    const ready = await client.identify(`Bearer ${token.body.access_token}`);
    return { client, userId: (ready.d as { user: { id: string } }).user.id };
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform.close();
  });

  it('delivers count dispatches in order, numbered, to the addressed users only', async () => {
    const alice = await session('alice');
    const bob = await session('bob');
    try {
      // More than one chunk of 1000, so the publishing loop yields to the event loop on the way.
      const count = 2500;
      const response = await dispatch({ user_ids: [alice.userId], t: 'BENCH_EVENT', d: { payload: 'x' }, count });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ published: count });
      for (let i = 0; i < count; i++) {
        const frame = await alice.client.next();
        // READY was sequence 1.
        expect(frame).toEqual({ op: 0, t: 'BENCH_EVENT', d: { payload: 'x', n: i }, s: i + 2 });
      }

      // Frames of one connection arrive in order: had bob been addressed above, those frames would come first.
      expect((await dispatch({ user_ids: [bob.userId], t: 'MARKER', d: null, count: 1 })).status).toBe(200);
      expect(await bob.client.next()).toEqual({ op: 0, t: 'MARKER', d: null, s: 2 });
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });

  it('sends d unchanged when count is 1 or d is not an object', async () => {
    const carol = await session('carol');
    try {
      expect((await dispatch({ user_ids: [carol.userId], t: 'ONE', d: { a: 1 }, count: 1 })).body).toEqual({
        published: 1,
      });
      expect((await dispatch({ user_ids: [carol.userId], t: 'LIST', d: [1, 2], count: 2 })).body).toEqual({
        published: 2,
      });
      expect(await carol.client.next()).toMatchObject({ t: 'ONE', d: { a: 1 } });
      expect(await carol.client.next()).toMatchObject({ t: 'LIST', d: [1, 2] });
      expect(await carol.client.next()).toMatchObject({ t: 'LIST', d: [1, 2] });
    } finally {
      await carol.client.close();
    }
  });

  it('answers bad bodies with 50035 and field errors', async () => {
    const missing = await dispatch({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 50035,
      errors: {
        user_ids: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
        t: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
        d: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
        count: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
      },
    });

    const bad = await dispatch({ user_ids: [], t: 'lower-case', d: 1, count: 0 });
    expect(bad.body).toMatchObject({
      code: 50035,
      errors: {
        user_ids: { _errors: [{ code: 'BASE_TYPE_MIN_LENGTH' }] },
        t: { _errors: [{ code: 'STRING_TYPE_REGEX', message: 'Must be UPPER_SNAKE_CASE.' }] },
        count: { _errors: [{ code: 'NUMBER_TYPE_MIN' }] },
      },
    });

    const tooMany = await dispatch({
      user_ids: Array.from({ length: 1001 }, () => '1'),
      t: 'X',
      d: null,
      count: 100_001,
    });
    expect(tooMany.body).toMatchObject({
      code: 50035,
      errors: {
        user_ids: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] },
        count: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] },
      },
    });

    const notSnowflake = await dispatch({ user_ids: ['1', 'abc'], t: 'X', d: null, count: 1.5 });
    expect(notSnowflake.body).toMatchObject({
      code: 50035,
      errors: {
        user_ids: { 1: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.' }] } },
        count: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] },
      },
    });
  });

  it('does not exist when devMode is off', async () => {
    const production = await startTestPlatform({ devMode: false });
    try {
      const response = await request(`${production.apiBase}/dev/gateway/dispatch`, {
        json: { user_ids: ['1'], t: 'X', d: null, count: 1 },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 0, message: '404: Not Found' });
    } finally {
      await production.close();
    }
  });
});
