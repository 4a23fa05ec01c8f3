/**
 * Server-side request forgery (PROTOCOL.md §7 "Outbound requests"): a bot token sets the URLs the platform posts to
 * (interactions endpoint, event webhooks, lobby overrides) and the development routes set the activity proxy's
 * targets. None of them may reach the platform itself — the attack was a PING to `/dev/users/{id}/ban` — and none
 * may reach a loopback, private or link-local address the operator did not allow. Checked where the URL is set
 * (a field error) and again when a request is sent; the dev routes refuse whatever the platform sends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { OutboundGuard, OUTBOUND_VIA, type ResolvedAddress } from '../../src/outbound/guard.js';
import { OutboundHttpClient } from '../../src/outbound/http-client.js';
import { startCli } from '../support/cli.js';
import { bot, request } from '../support/http.js';
import { accessTokenFor, createApp, createUser, eventually, startTestPlatform } from '../support/platform.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { startBotPlatform } from '../bot/fixture.js';
import { createCommand, trigger } from '../interactions/support.js';

let platform: RunningPlatform;
let victim: string;

beforeAll(async () => {
  platform = await startTestPlatform({ webhookRetry: { baseMs: 10, maxMs: 50 } });
  victim = (await createUser(platform, { username: 'victim' })).id;
});
afterAll(() => platform?.close());

const banned = (p: RunningPlatform, userId: string) => p.store.users.get(userId)!.bannedUntil !== null;
const patchMe = (json: unknown) =>
  request(`${platform.apiBase}/applications/@me`, { method: 'PATCH', headers: bot(platform.devApp.botToken), json });

/** The platform's own ban route in the spellings a URL parser or resolver turns into its own address. */
function ownBanUrls(p: RunningPlatform, userId: string): string[] {
  const port = new URL(p.httpUrl).port;
  const path = `/api/v10/dev/users/${userId}/ban`;
  return [
    `${p.httpUrl}${path}`,
    `http://localhost:${port}${path}`,
    `http://localhost.:${port}${path}`,
    `http://app.localhost:${port}${path}`,
    `http://[::1]:${port}${path}`,
    `http://[::ffff:127.0.0.1]:${port}${path}`,
    `http://0.0.0.0:${port}${path}`,
    `http://[::]:${port}${path}`,
    `http://127.1:${port}${path}`,
    `http://2130706433:${port}${path}`,
    `http://0x7f000001:${port}${path}`,
  ];
}

describe('the attack from the issue: a bot points the platform at its own development routes', () => {
  it('interactions_endpoint_url on the platform itself: a field error, no PING sent, nobody banned', async () => {
    for (const url of ownBanUrls(platform, victim)) {
      const response = await patchMe({ interactions_endpoint_url: url });
      expect(response.status, `${url}: ${response.text}`).toBe(400);
      const error = response.body.errors.interactions_endpoint_url._errors[0];
      expect(error.code, url).toBe('URL_DESTINATION_REFUSED');
      expect(error.message, url).toContain('the platform itself');
      expect(banned(platform, victim), url).toBe(false);
    }
    expect(platform.store.interactions.settings(platform.devApp.id).endpointUrl).toBeNull();
  });

  it('event_webhooks_url on the platform itself: a field error, the application unchanged', async () => {
    const before = platform.store.applications.get(platform.devApp.id)!.webhookUrl;
    for (const url of ownBanUrls(platform, victim)) {
      const response = await patchMe({ event_webhooks_url: url, event_webhooks_status: 2 });
      expect(response.status, url).toBe(400);
      expect(response.body.errors.event_webhooks_url._errors[0].code, url).toBe('URL_DESTINATION_REFUSED');
    }
    expect(platform.store.applications.get(platform.devApp.id)!.webhookUrl).toBe(before);
  });

  it("a lobby's override_event_webhooks_url on the platform itself is refused on create and on patch", async () => {
    const [url] = ownBanUrls(platform, victim);
    const created = await request(`${platform.apiBase}/lobbies`, {
      headers: bot(platform.devApp.botToken),
      json: { override_event_webhooks_url: url },
    });
    expect(created.status, created.text).toBe(400);
    expect(created.body.errors.override_event_webhooks_url._errors[0].code).toBe('URL_DESTINATION_REFUSED');
    const lobby = await request(`${platform.apiBase}/lobbies`, { headers: bot(platform.devApp.botToken), json: {} });
    expect(lobby.status, lobby.text).toBe(201);
    const patched = await request(`${platform.apiBase}/lobbies/${lobby.body.id}`, {
      method: 'PATCH',
      headers: bot(platform.devApp.botToken),
      json: { override_event_webhooks_url: url },
    });
    expect(patched.body.errors.override_event_webhooks_url._errors[0].code).toBe('URL_DESTINATION_REFUSED');
  });

  it('a webhook URL stored before the check (or one that resolves elsewhere later) is refused when the event is sent', async () => {
    const [url] = ownBanUrls(platform, victim);
    const app = platform.store.applications.get(platform.devApp.id)!;
    platform.store.applications.update({
      ...app,
      webhookUrl: url!,
      profile: { ...app.profile, eventWebhooksStatus: 2 },
    });
    try {
      // Signing in to the development application sends APPLICATION_AUTHORIZED to its webhook URL.
      await accessTokenFor(platform, { clientId: platform.devApp.id, scope: 'identify', user: 'dev_user' });
      const entry = await eventually(() =>
        platform.store.outbox.list().find((e) => e.applicationId === app.id && e.attempts > 0),
      );
      expect(entry.lastError).toContain('the platform itself');
      expect(banned(platform, victim)).toBe(false);
    } finally {
      platform.store.applications.update(app);
    }
  });

  it('an interactions endpoint stored before the check is refused when an interaction is sent', async () => {
    const f = await startBotPlatform();
    try {
      const target = f.memberId;
      const [url] = ownBanUrls(f.platform, target);
      const command = await createCommand(f, { name: 'hello', description: 'x' });
      f.platform.store.interactions.setSettings({
        ...f.platform.store.interactions.settings(f.appId),
        endpointUrl: url!,
      });
      const triggered = await trigger(f, {
        type: 2,
        user_id: f.ownerId,
        application_id: f.appId,
        channel_id: f.generalId,
        command_id: command,
      });
      expect(triggered.body.delivered, triggered.text).toBe('endpoint');
      expect(triggered.body.endpoint_error).toContain('the platform itself');
      expect(banned(f.platform, target)).toBe(false);
    } finally {
      await f.platform.close();
    }
  });

  it('an activity mapping to the platform itself: refused on the dev route, and by the proxy when stored anyway', async () => {
    const port = new URL(platform.httpUrl).port;
    const app = await createApp(platform, { name: 'Proxy Game' });
    const target = `127.0.0.1:${port}/api/v10/dev`;
    const put = await request(`${platform.apiBase}/dev/applications/${app.id}/url-mappings`, {
      method: 'PUT',
      json: { url_mappings: [{ prefix: '/', target }] },
    });
    expect(put.status, put.text).toBe(400);
    expect(put.body.errors.url_mappings['0'].target._errors[0].code).toBe('URL_DESTINATION_REFUSED');
    const created = await request(`${platform.apiBase}/dev/applications`, {
      json: { name: 'Proxy Game 2', url_mappings: [{ prefix: '/', target }] },
    });
    expect(created.body.errors.url_mappings['0'].target._errors[0].code).toBe('URL_DESTINATION_REFUSED');

    platform.store.activities.setUrlMappings(app.id, [{ prefix: '/', target }]);
    const proxied = await request(`${platform.httpUrl}/activities/${app.id}/users/${victim}/ban`, { json: {} });
    expect(proxied.status).toBe(502);
    expect(proxied.body.message).toContain('the platform itself');
    expect(banned(platform, victim)).toBe(false);
  });
});

describe('defence in depth: the development routes refuse what a platform sends', () => {
  it('a request carrying the platform Via is refused by every dev route, JSON body or not', async () => {
    const response = await request(`${platform.apiBase}/dev/users/${victim}/ban`, {
      json: {},
      headers: { via: OUTBOUND_VIA },
    });
    expect(response.status).toBe(403);
    expect(response.body.message).toContain('the platform itself sends');
    const behindProxy = await request(`${platform.apiBase}/dev/state`, {
      headers: { via: `1.0 corp-proxy, ${OUTBOUND_VIA}` },
    });
    expect(behindProxy.status).toBe(403);
    expect(banned(platform, victim)).toBe(false);
  });

  it("another platform on this machine (loopback allowed) cannot be driven through this one's webhooks", async () => {
    const other = await startTestPlatform();
    try {
      const target = (await createUser(other, { username: 'other_victim' })).id;
      const url = `${other.apiBase}/dev/users/${target}/ban`;
      // Loopback is allowed in development mode, and the other platform's port is not this one's: the guard lets it
      // through, the other platform's dev guard does not.
      expect(await platform.context.outbound.guard.problem(url)).toBeUndefined();
      const response = await platform.context.outbound.request(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
        timeoutMs: 5000,
      });
      expect(response.status).toBe(403);
      expect(banned(other, target)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('a receiver that redirects to the platform itself is not followed', async () => {
    const [url] = ownBanUrls(platform, victim);
    const redirector = http.createServer((_req, res) => res.writeHead(307, { location: url }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const response = await platform.context.outbound.request(
        `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`,
        { method: 'POST', body: '{}', timeoutMs: 5000 },
      );
      expect(response.status).toBe(307);
      expect(banned(platform, victim)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});

describe('private destinations need the operator to allow them', () => {
  let strict: RunningPlatform;
  beforeAll(async () => {
    strict = await startTestPlatform({ outboundAllow: [] });
  });
  afterAll(() => strict?.close());
  const strictPatch = (json: unknown) =>
    request(`${strict.apiBase}/applications/@me`, { method: 'PATCH', headers: bot(strict.devApp.botToken), json });

  it('loopback, private, link-local, unspecified, multicast and embedded-IPv4 forms are refused with a reason', async () => {
    const refused: Array<[string, string]> = [
      ['http://127.0.0.1:9/hook', 'loopback'],
      ['http://localhost:9/hook', 'loopback'],
      ['http://10.1.2.3/hook', 'private'],
      ['http://172.16.0.1/hook', 'private'],
      ['http://192.168.1.1/hook', 'private'],
      ['http://100.64.0.1/hook', 'carrier-grade NAT'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local'],
      ['http://0.0.0.0:9/hook', 'unspecified'],
      ['http://224.0.0.1/hook', 'multicast'],
      ['http://[fe80::1]/hook', 'link-local'],
      ['http://[fc00::1]/hook', 'private (unique local)'],
      ['http://[fd12:3456::1]/hook', 'private (unique local)'],
      ['http://[::]/hook', 'unspecified'],
      ['http://[::1]:9/hook', 'loopback'],
      ['http://[ff02::1]/hook', 'multicast'],
      ['http://[::ffff:10.0.0.1]/hook', 'private'],
      ['http://[::ffff:169.254.169.254]/hook', 'link-local'],
      ['http://[64:ff9b::a00:1]/hook', 'NAT64'],
      ['http://[2002:a00:1::]/hook', '6to4'],
      ['http://[::a00:1]/hook', 'IPv4-compatible'],
    ];
    for (const [url, word] of refused) {
      const response = await strictPatch({ event_webhooks_url: url });
      expect(response.status, url).toBe(400);
      const error = response.body.errors.event_webhooks_url._errors[0];
      expect(error.code, url).toBe('URL_DESTINATION_REFUSED');
      expect(error.message, url).toContain(word);
      expect(error.message, url).toContain('--allow-outbound');
    }
  });

  it('a public address is accepted where it is set', async () => {
    const response = await strictPatch({ event_webhooks_url: 'https://93.184.215.14/hooks' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.event_webhooks_url).toBe('https://93.184.215.14/hooks');
  });

  it('a loopback receiver works once its range is allowed, and the platform itself still never does', async () => {
    const receiver = await startWebhookReceiver();
    const allowing = await startTestPlatform({ outboundAllow: ['127.0.0.1/32'] });
    try {
      const patch = (json: unknown) =>
        request(`${allowing.apiBase}/applications/@me`, {
          method: 'PATCH',
          headers: bot(allowing.devApp.botToken),
          json,
        });
      expect((await patch({ event_webhooks_url: receiver.url })).status).toBe(200);
      expect((await patch({ event_webhooks_url: 'http://[::1]:9/hook' })).status).toBe(400);
      const own = await patch({ event_webhooks_url: `${allowing.apiBase}/dev/state` });
      expect(own.body.errors.event_webhooks_url._errors[0].message).toContain('the platform itself');
      const response = await allowing.context.outbound.request(receiver.url, {
        method: 'POST',
        body: '{"event":{"type":"PING"}}',
        headers: { 'content-type': 'application/json' },
        timeoutMs: 5000,
      });
      expect(response.status).toBe(204);
      expect(receiver.requests[0]!.headers.via).toBe(OUTBOUND_VIA);
    } finally {
      await allowing.close();
      await receiver.close();
    }
  });

  it('a range that is not one fails the start with a clear error', async () => {
    await expect(startTestPlatform({ outboundAllow: ['10.0.0/8'] })).rejects.toThrow(
      /outboundAllow: "10.0.0\/8" is not an address range/,
    );
  });
});

describe('the guard: resolved once, connected to the checked address', () => {
  /** A receiver on 127.0.0.2 (allowed) and a guard whose resolver answers differently on each call. */
  async function rebindingSetup(answers: ResolvedAddress[][]) {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.socket.localAddress} ${req.headers.host}`);
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    const port = (server.address() as AddressInfo).port;
    let calls = 0;
    const guard = new OutboundGuard({
      allow: ['127.0.0.2/32'],
      own: () => ({ ports: new Set([new URL(platform.httpUrl).port].map(Number)), authorities: new Set() }),
      resolve: async () => answers[Math.min(calls++, answers.length - 1)]!,
    });
    return {
      seen,
      port,
      guard,
      calls: () => calls,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('a name that rebinds to a refused address after the check still connects to the checked one', async () => {
    const setup = await rebindingSetup([[{ address: '127.0.0.2', family: 4 }], [{ address: '127.0.0.1', family: 4 }]]);
    try {
      const client = new OutboundHttpClient([], setup.guard);
      const response = await client.request(`http://rebind.example:${setup.port}/hook`, {
        method: 'POST',
        body: '{}',
        timeoutMs: 5000,
      });
      expect(response.status).toBe(204);
      expect(setup.seen).toEqual([`127.0.0.2 rebind.example:${setup.port}`]);
      expect(setup.calls()).toBe(1);
    } finally {
      await setup.close();
    }
  });

  it('of the addresses a name has, only allowed ones are connected to; none allowed is a refusal', async () => {
    const setup = await rebindingSetup([
      [
        { address: '10.0.0.1', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ],
      [{ address: '169.254.169.254', family: 4 }],
    ]);
    try {
      const client = new OutboundHttpClient([], setup.guard);
      expect((await client.request(`http://mixed.example:${setup.port}/`, { timeoutMs: 5000 })).status).toBe(204);
      expect(setup.seen).toEqual([`127.0.0.2 mixed.example:${setup.port}`]);
      await expect(client.request(`http://metadata.example:${setup.port}/`, { timeoutMs: 5000 })).rejects.toThrow(
        /169\.254\.169\.254, a link-local address/,
      );
    } finally {
      await setup.close();
    }
  });

  it("this machine's interface addresses on the platform's ports are the platform itself, whatever is allowed", async () => {
    const guard = new OutboundGuard({
      allow: ['0.0.0.0/0', '::/0'],
      own: () => ({ ports: new Set([8787]), authorities: new Set(['play.example:443']) }),
      localAddresses: () => ['192.168.7.20', 'fe80::1%eth0'],
      resolve: async () => [{ address: '203.0.113.9', family: 4 }],
    });
    expect(await guard.problem('http://192.168.7.20:8787/api/v10/dev/state')).toContain('the platform itself');
    expect(await guard.problem('http://[fe80::1]:8787/')).toContain('the platform itself');
    expect(await guard.problem('https://play.example/api/v10/gateway')).toContain('the platform itself');
    expect(await guard.problem('http://192.168.7.20:8080/')).toBeUndefined();
    expect(await guard.problem('http://192.168.7.21:8787/')).toBeUndefined();
  });
});

describe('the CLI', () => {
  it('--allow-outbound replaces the development default and is printed; "none" allows nothing; a bad range fails the start', async () => {
    const dev = await startCli(['--port', '0', '--db', ':memory:']);
    dev.child.kill('SIGTERM');
    expect(dev.output()).toContain('Outbound   public addresses and 127.0.0.0/8, ::1/128 (never the platform itself)');
    const allowing = await startCli([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--allow-outbound',
      '10.0.0.0/8',
      '--allow-outbound',
      'fd00::/8',
    ]);
    try {
      expect(allowing.output()).toContain(
        'Outbound   public addresses and 10.0.0.0/8, fd00::/8 (never the platform itself)',
      );
      const apiBase = /API base\s+(\S+)/.exec(allowing.output())![1]!;
      const botToken = /bot token\s+(\S+)/.exec(allowing.output())![1]!;
      const patch = (url: string) =>
        request(`${apiBase}/applications/@me`, {
          method: 'PATCH',
          headers: bot(botToken),
          json: { event_webhooks_url: url },
        });
      expect((await patch('http://10.9.8.7/hooks')).status).toBe(200);
      expect((await patch('http://127.0.0.1:9/hooks')).body.errors.event_webhooks_url._errors[0].message).toContain(
        'loopback',
      );
    } finally {
      allowing.child.kill('SIGTERM');
    }
    const none = await startCli(['--port', '0', '--db', ':memory:', '--allow-outbound', 'none']);
    none.child.kill('SIGTERM');
    expect(none.output()).toContain('Outbound   public addresses only (never the platform itself)');
    await expect(startCli(['--port', '0', '--db', ':memory:', '--allow-outbound', '10.0.0/8'])).rejects.toThrow(
      /outboundAllow: "10.0.0\/8" is not an address range/,
    );
    expect(await allowing.exited).toBe(0);
    await Promise.all([dev.exited, none.exited]);
  }, 120_000);
});
