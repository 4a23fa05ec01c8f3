/**
 * The game server's webhook helpers (lib/webhooks.ts, webhook-receiver.ts, webhook-listener.ts): envelopes signed
 * here with the platform's own signing code and a generated Ed25519 key, then real deliveries from the platform.
 */
import { createPrivateKey, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SvcppWebhookError,
  WebhookReceiver,
  WebhookType,
  WebhookVerifier,
  webhookListener,
  type WebhookEvent,
  type WebhookOutcome,
} from '../lib/server.js';
import { generateApplicationKeyPair, signatureHeaders } from '../platform/src/webhooks/signing.js';
import { request } from '../platform/test/support/http.js';
import { authorizeCode, createApp, eventually, startTestPlatform } from '../platform/test/support/platform.js';

const APP_ID = '1573608845660471296';
const appKey = generateApplicationKeyPair();
const otherKey = generateApplicationKeyPair();
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The published envelope, as the platform serialises it (with the stable `event.id`). */
function envelope(
  id: string | undefined,
  type = 'APPLICATION_DEAUTHORIZED',
  data: unknown = { user: { id: '42', username: 'ada' } },
): string {
  return JSON.stringify({
    version: 1,
    application_id: APP_ID,
    type: 1,
    event: { ...(id !== undefined && { id }), type, timestamp: '2026-01-02T03:04:05.678Z', data },
  });
}

/** Headers as node:http hands them over (lower-case names), signed with `key` at `seconds`. */
function signed(body: string, key = appKey, seconds = nowSeconds()): Record<string, string> {
  return Object.fromEntries(
    Object.entries(signatureHeaders(key.privateKeyPem, body, seconds)).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );
}

const verifier = () => new WebhookVerifier({ publicKey: appKey.publicKeyHex });

function refusal(run: () => unknown): SvcppWebhookError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SvcppWebhookError);
    return error as SvcppWebhookError;
  }
  throw new Error('expected an SvcppWebhookError');
}

describe('WebhookVerifier', () => {
  it('returns a verified event with bigint ids and the data as sent', () => {
    const body = envelope('1573608845660471999');
    expect(verifier().verify(signed(body), body)).toEqual({
      type: WebhookType.Event,
      applicationId: BigInt(APP_ID),
      id: 1573608845660471999n,
      eventType: 'APPLICATION_DEAUTHORIZED',
      timestamp: '2026-01-02T03:04:05.678Z',
      data: { user: { id: '42', username: 'ada' } },
    });
    expect(verifier().verify(signed(body), Buffer.from(body))).toMatchObject({ id: 1573608845660471999n });
  });

  it('returns a PING (type 0)', () => {
    const body = JSON.stringify({ version: 1, application_id: APP_ID, type: 0 });
    expect(verifier().verify(signed(body), body)).toEqual({ type: WebhookType.Ping, applicationId: BigInt(APP_ID) });
  });

  it('reads the signature headers in any letter case', () => {
    const body = envelope('7');
    expect(verifier().verify(signatureHeaders(appKey.privateKeyPem, body, nowSeconds()), body)).toMatchObject({
      id: 7n,
    });
  });

  it('refuses a tampered body', () => {
    const body = envelope('7');
    const error = refusal(() => verifier().verify(signed(body), body.replace('ada', 'eve')));
    expect(error.code).toBe('ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE');
  });

  it('refuses a tampered timestamp', () => {
    const body = envelope('7');
    const headers = { ...signed(body), 'x-signature-timestamp': String(nowSeconds() + 1) };
    expect(refusal(() => verifier().verify(headers, body)).code).toBe('ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE');
  });

  it("refuses a signature made with another application's key", () => {
    const body = envelope('7');
    expect(refusal(() => verifier().verify(signed(body, otherKey), body)).code).toBe(
      'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE',
    );
  });

  it('refuses a malformed signature', () => {
    const body = envelope('7');
    const genuine = signed(body);
    for (const bad of [
      'zz'.repeat(64),
      genuine['x-signature-ed25519']!.slice(2),
      `${genuine['x-signature-ed25519']}00`,
    ]) {
      expect(refusal(() => verifier().verify({ ...genuine, 'x-signature-ed25519': bad }, body)).code).toBe(
        'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE',
      );
    }
  });

  it('refuses a request with a missing or empty signature header', () => {
    const body = envelope('7');
    const genuine = signed(body);
    for (const name of ['x-signature-ed25519', 'x-signature-timestamp']) {
      const { [name]: _dropped, ...without } = genuine;
      expect(refusal(() => verifier().verify(without, body)).code).toBe('ERR_SVCPP_WEBHOOK_MISSING_SIGNATURE');
      expect(refusal(() => verifier().verify({ ...genuine, [name]: '' }, body)).code).toBe(
        'ERR_SVCPP_WEBHOOK_MISSING_SIGNATURE',
      );
      expect(
        refusal(() => verifier().verify({ ...genuine, [name]: [genuine[name]!, genuine[name]!] }, body)).code,
      ).toBe('ERR_SVCPP_WEBHOOK_MISSING_SIGNATURE');
    }
  });

  it('refuses a genuine signature whose timestamp is too old, too far ahead or not Unix seconds', () => {
    const body = envelope('7');
    for (const seconds of [nowSeconds() - 3600, nowSeconds() + 3600]) {
      expect(refusal(() => verifier().verify(signed(body, appKey, seconds), body)).code).toBe(
        'ERR_SVCPP_WEBHOOK_STALE_TIMESTAMP',
      );
      // A wider window accepts the same request.
      expect(
        new WebhookVerifier({ publicKey: appKey.publicKeyHex, maxTimestampAgeSeconds: 7200 }).verify(
          signed(body, appKey, seconds),
          body,
        ),
      ).toMatchObject({ id: 7n });
    }
    // Signed over a timestamp that is not decimal seconds: genuine, but not a time this helper accepts.
    const isoTimestamp = new Date().toISOString();
    const odd = sign(
      null,
      Buffer.concat([Buffer.from(isoTimestamp), Buffer.from(body)]),
      createPrivateKey(appKey.privateKeyPem),
    ).toString('hex');
    expect(
      refusal(() => verifier().verify({ 'x-signature-ed25519': odd, 'x-signature-timestamp': isoTimestamp }, body))
        .code,
    ).toBe('ERR_SVCPP_WEBHOOK_STALE_TIMESTAMP');
  });

  it('refuses signed bodies that are not a webhook envelope', () => {
    const bodies = [
      'not json',
      'null',
      JSON.stringify({ version: 2, application_id: APP_ID, type: 1, event: { type: 'X', timestamp: 't', data: {} } }),
      JSON.stringify({ version: 1, type: 1, event: { type: 'X', timestamp: 't', data: {} } }),
      JSON.stringify({ version: 1, application_id: 'app', type: 1, event: { type: 'X', timestamp: 't', data: {} } }),
      JSON.stringify({ version: 1, application_id: APP_ID, type: 7 }),
      JSON.stringify({ version: 1, application_id: APP_ID, type: 1 }),
      JSON.stringify({ version: 1, application_id: APP_ID, type: 1, event: { timestamp: 't', data: {} } }),
      JSON.stringify({ version: 1, application_id: APP_ID, type: 1, event: { type: 'X', data: {} } }),
      JSON.stringify({
        version: 1,
        application_id: APP_ID,
        type: 1,
        event: { id: 12, type: 'X', timestamp: 't', data: {} },
      }),
      JSON.stringify({
        version: 1,
        application_id: APP_ID,
        type: 1,
        event: { id: 'evt-1', type: 'X', timestamp: 't', data: {} },
      }),
    ];
    for (const body of bodies)
      expect(refusal(() => verifier().verify(signed(body), body)).code, body).toBe('ERR_SVCPP_WEBHOOK_INVALID_BODY');
  });

  it('refuses a public key that is not 32 bytes of hex, and a non-positive timestamp window', () => {
    for (const publicKey of [
      '',
      appKey.publicKeyHex.slice(1),
      `${appKey.publicKeyHex}00`,
      'g'.repeat(64),
      42 as unknown as string,
    ]) {
      expect(refusal(() => new WebhookVerifier({ publicKey })).code).toBe('ERR_SVCPP_WEBHOOK_INVALID_KEY');
    }
    for (const maxTimestampAgeSeconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new WebhookVerifier({ publicKey: appKey.publicKeyHex, maxTimestampAgeSeconds })).toThrow(RangeError);
    }
  });
});

describe('WebhookReceiver', () => {
  const receiver = (rememberEventIds?: number) =>
    new WebhookReceiver({
      publicKey: appKey.publicKeyHex,
      ...(rememberEventIds !== undefined && { rememberEventIds }),
    });
  const deliver = (target: WebhookReceiver, body: string, handled: WebhookEvent[]) =>
    target.receive(signed(body), body, (event) => void handled.push(event));

  it('hands the same envelope delivered twice to the handler once', async () => {
    const target = receiver();
    const handled: WebhookEvent[] = [];
    const body = envelope('1001');
    expect(await deliver(target, body, handled)).toMatchObject({ status: 204 });
    expect(await deliver(target, body, handled)).toMatchObject({ status: 204, duplicate: true });
    expect(await deliver(target, envelope('1002'), handled)).toMatchObject({ status: 204 });
    expect(handled.map((event) => event.id)).toEqual([1001n, 1002n]);
  });

  it('answers a PING 204 without calling the handler', async () => {
    const handled: WebhookEvent[] = [];
    const body = JSON.stringify({ version: 1, application_id: APP_ID, type: 0 });
    expect(await deliver(receiver(), body, handled)).toEqual({
      status: 204,
      message: { type: WebhookType.Ping, applicationId: BigInt(APP_ID) },
    });
    expect(handled).toEqual([]);
  });

  it('answers 401 to a bad signature and 400 to a signed non-envelope, without calling the handler', async () => {
    const handled: WebhookEvent[] = [];
    const body = envelope('1003');
    const forged = await receiver().receive(signed(body, otherKey), body, (event) => void handled.push(event));
    expect(forged).toMatchObject({ status: 401, error: { code: 'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE' } });
    expect(await deliver(receiver(), '[]', handled)).toMatchObject({
      status: 400,
      error: { code: 'ERR_SVCPP_WEBHOOK_INVALID_BODY' },
    });
    expect(handled).toEqual([]);
  });

  it('answers 500 when the handler throws and hands the re-delivery over again', async () => {
    const target = receiver();
    const body = envelope('1004');
    const failure = new Error('database down');
    expect(await target.receive(signed(body), body, () => Promise.reject(failure))).toMatchObject({
      status: 500,
      error: failure,
    });
    const handled: WebhookEvent[] = [];
    expect(await deliver(target, body, handled)).toMatchObject({ status: 204 });
    expect(handled.map((event) => event.id)).toEqual([1004n]);
  });

  it('answers 409 to a re-delivery that arrives while the first is still being handled', async () => {
    const target = receiver();
    const body = envelope('1005');
    let finish!: () => void;
    const first = target.receive(signed(body), body, () => new Promise<void>((resolve) => (finish = resolve)));
    const handled: WebhookEvent[] = [];
    expect(await deliver(target, body, handled)).toMatchObject({ status: 409, duplicate: true });
    finish();
    expect(await first).toMatchObject({ status: 204 });
    expect(await deliver(target, body, handled)).toMatchObject({ status: 204, duplicate: true });
    expect(handled).toEqual([]);
  });

  it('remembers at most rememberEventIds ids (oldest forgotten first); 0 turns de-duplication off', async () => {
    const small = receiver(2);
    const handled: WebhookEvent[] = [];
    for (const id of ['1', '2', '3', '1', '3']) await deliver(small, envelope(id), handled);
    expect(handled.map((event) => event.id)).toEqual([1n, 2n, 3n, 1n]);

    const off = receiver(0);
    const all: WebhookEvent[] = [];
    for (const id of ['1', '1']) await deliver(off, envelope(id), all);
    expect(all.map((event) => event.id)).toEqual([1n, 1n]);
  });

  it('hands every delivery of an event without an id to the handler', async () => {
    const target = receiver();
    const handled: WebhookEvent[] = [];
    const body = envelope(undefined);
    await deliver(target, body, handled);
    await deliver(target, body, handled);
    expect(handled.map((event) => [event.id, event.eventType])).toEqual([
      [undefined, 'APPLICATION_DEAUTHORIZED'],
      [undefined, 'APPLICATION_DEAUTHORIZED'],
    ]);
  });

  it('refuses a rememberEventIds that is not a non-negative integer', () => {
    for (const rememberEventIds of [-1, 1.5, Number.NaN]) expect(() => receiver(rememberEventIds)).toThrow(RangeError);
  });
});

describe('webhookListener (node:http)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  /**
   * A node:http server on loopback serving webhookListener; records handled events and refusals. `trust(key)` sets
   * the public key (until then it answers 503), so an application's URL can exist before its key does.
   */
  async function listen(publicKey?: string, maxBodyBytes?: number) {
    const handled: WebhookEvent[] = [];
    const refused: WebhookOutcome[] = [];
    let listener: http.RequestListener = (_req, res) => void res.writeHead(503).end();
    const trust = (key: string) => {
      listener = webhookListener(new WebhookReceiver({ publicKey: key }), (event) => void handled.push(event), {
        onRefused: (outcome) => refused.push(outcome),
        ...(maxBodyBytes !== undefined && { maxBodyBytes }),
      });
    };
    if (publicKey !== undefined) trust(publicKey);
    const server = http.createServer((req, res) => listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, handled, refused, trust };
  }

  it('answers 204 to a signed event, 401 to a forged one, 405 to a GET and 413 to a body over the limit', async () => {
    const target = await listen(appKey.publicKeyHex, 4096);
    const body = envelope('2001');
    const post = (raw: string, headers: Record<string, string>) =>
      request(target.url, { method: 'POST', raw, headers: { 'content-type': 'application/json', ...headers } });

    const accepted = await post(body, signed(body));
    expect([accepted.status, accepted.text]).toEqual([204, '']);
    expect((await post(body, signed(body, otherKey))).status).toBe(401);
    expect((await request(target.url)).status).toBe(405);
    const big = envelope('2002', 'LOBBY_MESSAGE_CREATE', { content: 'x'.repeat(5000) });
    expect((await post(big, signed(big))).status).toBe(413);
    expect(target.handled.map((event) => event.id)).toEqual([2001n]);
    expect(target.refused.map((outcome) => outcome.status)).toEqual([401]);
  });

  it("verifies real deliveries from the platform: the application's key is handed the event, another key answers 401", async () => {
    const platform = await startTestPlatform({ database: ':memory:', webhookRetry: { baseMs: 10, maxMs: 50 } });
    cleanup.push(() => platform.close());
    // Two applications: one whose receiver holds its public key, one whose receiver holds an unrelated key.
    const right = await listen();
    const rightApp = await createApp(platform, { name: 'Verified Game', webhook_url: right.url });
    right.trust(rightApp.public_key);
    const wrong = await listen(otherKey.publicKeyHex);
    const wrongApp = await createApp(platform, { name: 'Misconfigured Game', webhook_url: wrong.url });

    await authorizeCode(platform, { clientId: rightApp.id, scope: 'identify', user: 'dev_user' });
    await authorizeCode(platform, { clientId: wrongApp.id, scope: 'identify', user: 'dev_user' });

    const [event] = await eventually(() => (right.handled.length > 0 ? right.handled : undefined));
    expect(event).toMatchObject({
      type: WebhookType.Event,
      applicationId: BigInt(rightApp.id),
      eventType: 'APPLICATION_AUTHORIZED',
      data: { scopes: ['identify'], user: { username: 'dev_user' } },
    });
    const refusedOutcome = await eventually(() => wrong.refused[0]);
    expect(refusedOutcome).toMatchObject({ status: 401, error: { code: 'ERR_SVCPP_WEBHOOK_INVALID_SIGNATURE' } });
    expect(wrong.handled).toEqual([]);
  });
});
