/** lib/server.ts against the real platform over TLS. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcppError } from '../lib/errors.js';
import { SvcppServer, SvcppServerError } from '../lib/server.js';
import { startPlatform, type RunningPlatform } from '../platform/src/index.js';
import { bearer, request } from '../platform/test/support/http.js';

describe('SvcppServer', () => {
  let platform: RunningPlatform;
  let server: SvcppServer;
  const serverWith = (botToken: string, trustCa = true) =>
    new SvcppServer({
      apiBase: platform.apiBase,
      botToken,
      applicationId: platform.devApp.id,
      ...(trustCa ? { ca: platform.caCertPem! } : {}),
    });
  const me = async (token: string) =>
    (await request(`${platform.apiBase}/users/@me`, { ca: platform.caCertPem!, headers: bearer(token) }))
      .body as Record<string, unknown>;

  async function rejection(promise: Promise<unknown>): Promise<SvcppServerError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SvcppServerError);
    return error as SvcppServerError;
  }

  beforeAll(async () => {
    // The default rate limits: the few requests below stay far under them.
    platform = await startPlatform({ port: 0, tls: true, logger: false, database: ':memory:' });
    server = serverWith(platform.devApp.botToken);
  });
  afterAll(async () => {
    await platform.close();
  });

  it('creates a provisional token that works for /users/@me', async () => {
    const token = await server.createProvisionalToken({ externalUserId: 'player-1' });
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'sdk.social_layer', expiresIn: expect.any(Number) });
    expect(token.idToken.split('.')).toHaveLength(3);
    expect(await me(token.accessToken)).toMatchObject({ is_provisional: true });
  });

  it('gives the same user for the same external id, and applies the preferred name', async () => {
    const first = await me((await server.createProvisionalToken({ externalUserId: 'player-2' })).accessToken);
    const second = await me(
      (await server.createProvisionalToken({ externalUserId: 'player-2', preferredGlobalName: 'Second Name' }))
        .accessToken,
    );
    expect(second.id).toBe(first.id);
    expect(second.global_name).toBe('Second Name');
  });

  it('throws SvcppServerError 401 / 50014 for a bad bot token', async () => {
    const error = await rejection(
      serverWith('not-a-valid-bot-token').createProvisionalToken({ externalUserId: 'player-3' }),
    );
    expect(error).toMatchObject({ status: 401, code: 50014, body: { code: 50014 } });
    expect(error.message).not.toContain('not-a-valid-bot-token');
  });

  it('verifies the certificate: without the CA the request fails', async () => {
    await expect(
      serverWith(platform.devApp.botToken, false).createProvisionalToken({ externalUserId: 'player-4' }),
    ).rejects.toThrow(/self-signed|certificate/i);
  });

  it('unmerging an unknown external id is 404 / 10013', async () => {
    const error = await rejection(server.unmergeProvisionalAccount({ externalUserId: 'never-seen' }));
    expect(error).toMatchObject({ status: 404, code: 10013 });
  });

  it('unmerges an identity merged into a full account; a provisional one is refused with 50229', async () => {
    const provisional = await server.createProvisionalToken({ externalUserId: 'player-5' });
    const notMerged = await rejection(server.unmergeProvisionalAccount({ externalUserId: 'player-5' }));
    expect(notMerged).toMatchObject({ status: 400, code: 50229 });

    // dev_user signs in to the dev app (a public client: PKCE, no secret) and merges player-5's account.
    const verifier = randomBytes(32).toString('base64url');
    const redirectUri = 'http://127.0.0.1:5555/callback';
    const authorize = new URLSearchParams({
      client_id: platform.devApp.id,
      response_type: 'code',
      scope: 'identify',
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      svcpp_dev_user: 'dev_user',
    });
    const approved = await request(`${platform.httpUrl}/oauth2/authorize?${authorize}`, { ca: platform.caCertPem! });
    const code = new URL(String(approved.headers.location)).searchParams.get('code')!;
    const merged = await request(`${platform.apiBase}/oauth2/token`, {
      ca: platform.caCertPem!,
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: platform.devApp.id,
        external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        external_auth_token: provisional.accessToken,
      },
    });
    expect(merged.status, merged.text).toBe(200);

    await expect(server.unmergeProvisionalAccount({ externalUserId: 'player-5' })).resolves.toBeUndefined();
    // The identity now belongs to a new provisional account again.
    expect(await me((await server.createProvisionalToken({ externalUserId: 'player-5' })).accessToken)).toMatchObject({
      is_provisional: true,
    });
  });
});

/** A stand-in platform answering 429 (the platform's body) `limited` times, then 200; counts requests. */
async function limitedServer(
  limited: number,
): Promise<{ apiBase: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const stub = http.createServer((req, res) => {
    requests++;
    res.setHeader('content-type', 'application/json');
    if (requests <= limited) {
      res
        .writeHead(429, { 'retry-after': '1' })
        .end(JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.01, global: false }));
    } else {
      res.end(
        JSON.stringify({
          access_token: 'a',
          token_type: 'Bearer',
          expires_in: 1,
          scope: 'sdk.social_layer',
          id_token: 'i',
        }),
      );
    }
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  return {
    apiBase: `http://127.0.0.1:${(stub.address() as AddressInfo).port}/api/v10`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => stub.close(() => resolve())),
  };
}

describe('SvcppServer rate limits', () => {
  it('retries a 429 after retry_after, up to 3 times', async () => {
    const recovers = await limitedServer(3);
    const exhausted = await limitedServer(4);
    try {
      const options = { botToken: 'bot', applicationId: '1' };
      expect(
        await new SvcppServer({ ...options, apiBase: recovers.apiBase }).createProvisionalToken({
          externalUserId: 'x',
        }),
      ).toMatchObject({ accessToken: 'a' });
      expect(recovers.requests()).toBe(4);
      const error = await new SvcppServer({ ...options, apiBase: exhausted.apiBase })
        .createProvisionalToken({ externalUserId: 'x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcppServerError);
      expect(error).toMatchObject({ status: 429, code: 0, retryAfter: 0.01 });
      expect(exhausted.requests()).toBe(4);
    } finally {
      await recovers.close();
      await exhausted.close();
    }
  });

  it('gives up at once when retry_after is too long, with retryAfter on the error', async () => {
    const platform = await startPlatform({
      port: 0,
      tls: true,
      logger: false,
      rateLimits: { 'partner-sdk.token': { limit: 1, windowSeconds: 3600 } },
    });
    try {
      const server = new SvcppServer({
        apiBase: platform.apiBase,
        botToken: platform.devApp.botToken,
        applicationId: platform.devApp.id,
        ca: platform.caCertPem!,
      });
      await server.createProvisionalToken({ externalUserId: 'first' });
      const error = await server.createProvisionalToken({ externalUserId: 'second' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcppServerError);
      expect(error).toMatchObject({ status: 429, code: 0, retryAfter: expect.any(Number) });
      expect((error as SvcppServerError).retryAfter).toBeGreaterThan(60);
    } finally {
      await platform.close();
    }
  });
});

describe('SvcppServer lobbies (bot-managed)', () => {
  let platform: RunningPlatform;
  let server: SvcppServer;
  const userIdOf = async (externalUserId: string) => {
    const token = (await server.createProvisionalToken({ externalUserId })).accessToken;
    return (
      (await request(`${platform.apiBase}/users/@me`, { ca: platform.caCertPem!, headers: bearer(token) })).body as {
        id: string;
      }
    ).id;
  };

  beforeAll(async () => {
    platform = await startPlatform({ port: 0, tls: true, logger: false, database: ':memory:' });
    server = new SvcppServer({
      apiBase: platform.apiBase,
      botToken: platform.devApp.botToken,
      applicationId: platform.devApp.id,
      ca: platform.caCertPem!,
    });
  });
  afterAll(async () => {
    await platform.close();
  });

  it('creates a lobby with members, reads it back, updates and deletes it', async () => {
    const [a, b] = [await userIdOf('lobby-a'), await userIdOf('lobby-b')];
    const created = await server.createLobby({
      metadata: { map: 'dust' },
      members: [{ userId: a, metadata: { team: 'red' }, canLinkLobby: true }],
      idleTimeoutSeconds: 60,
    });
    expect(created).toMatchObject({
      applicationId: BigInt(platform.devApp.id),
      metadata: { map: 'dust' },
      members: [{ userId: BigInt(a), metadata: { team: 'red' }, canLinkLobby: true }],
    });
    expect(await server.getLobby(created.id)).toEqual(created);

    const updated = await server.updateLobby(created.id, { metadata: { map: 'nuke' }, members: [{ userId: b }] });
    expect(updated.metadata).toEqual({ map: 'nuke' });
    expect(updated.members.map((m) => m.userId)).toEqual([BigInt(b)]); // `members` replaces the set

    await server.deleteLobby(created.id);
    await server.deleteLobby(created.id); // idempotent
    const gone = await server.getLobby(created.id).catch((e: unknown) => e);
    expect(gone).toMatchObject({ status: 404, code: 10031 });
  });

  it('upserts, bulk-changes and removes members; additional names set and cleared', async () => {
    const ids = [await userIdOf('bulk-a'), await userIdOf('bulk-b'), await userIdOf('bulk-c')];
    const lobby = await server.createLobby();
    expect(
      await server.putLobbyMember(lobby.id, ids[0]!, { additionalName: 'Captain', metadata: { role: 'lead' } }),
    ).toEqual({ userId: BigInt(ids[0]!), metadata: { role: 'lead' }, canLinkLobby: false, additionalName: 'Captain' });
    expect(await server.putLobbyMember(lobby.id, ids[0]!, { additionalName: null })).not.toHaveProperty(
      'additionalName',
    );

    const upserted = await server.bulkUpdateLobbyMembers(lobby.id, [
      { userId: ids[1]!, metadata: { slot: '2' } },
      { userId: ids[2]!, additionalName: 'Medic' },
      { userId: ids[0]!, remove: true },
    ]);
    expect(upserted.map((m) => String(m.userId)).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await server.getLobby(lobby.id)).members.map((m) => String(m.userId)).sort()).toEqual(
      [ids[1], ids[2]].sort(),
    );

    await server.removeLobbyMember(lobby.id, ids[1]!);
    expect((await server.getLobby(lobby.id)).members.map((m) => m.userId)).toEqual([BigInt(ids[2]!)]);
  });

  it('refuses a bulk change of more than 25 members and changes nothing', async () => {
    const lobby = await server.createLobby();
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push(await userIdOf(`over-${i}`));
    const error = await server
      .bulkUpdateLobbyMembers(
        lobby.id,
        ids.map((userId) => ({ userId })),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcppServerError);
    expect(error).toMatchObject({ status: 400, code: 50035 });
    expect((await server.getLobby(lobby.id)).members).toEqual([]);
  });

  it('sets moderation metadata on a lobby message (at most 5 keys)', async () => {
    const a = await userIdOf('mod-a');
    const token = (await server.createProvisionalToken({ externalUserId: 'mod-a' })).accessToken;
    const lobby = await server.createLobby({ members: [{ userId: a }] });
    const sent = await request(`${platform.apiBase}/lobbies/${lobby.id}/messages`, {
      method: 'POST',
      ca: platform.caCertPem!,
      headers: bearer(token),
      json: { content: 'gg' },
    });
    const messageId = (sent.body as { id: string }).id;
    await server.setLobbyMessageModerationMetadata(lobby.id, messageId, { verdict: 'clean' });
    const history = await request(`${platform.apiBase}/lobbies/${lobby.id}/messages`, {
      ca: platform.caCertPem!,
      headers: bearer(token),
    });
    expect((history.body as Array<{ moderation_metadata: unknown }>)[0]!.moderation_metadata).toEqual({
      verdict: 'clean',
    });
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    await expect(server.setLobbyMessageModerationMetadata(lobby.id, messageId, six)).rejects.toMatchObject({
      status: 400,
      code: 50035,
    });
  });
});

describe('SvcppServer ids and TLS', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ port: 0, tls: true, logger: false, database: ':memory:' });
  });
  afterAll(async () => {
    await platform.close();
  });
  const serverWith = (applicationId: bigint | string) =>
    new SvcppServer({
      apiBase: platform.apiBase,
      botToken: platform.devApp.botToken,
      applicationId,
      ca: platform.caCertPem!,
    });
  const userIdOf = async (server: SvcppServer, externalUserId: string) => {
    const token = (await server.createProvisionalToken({ externalUserId })).accessToken;
    return BigInt(
      (
        (await request(`${platform.apiBase}/users/@me`, { ca: platform.caCertPem!, headers: bearer(token) })).body as {
          id: string;
        }
      ).id,
    );
  };

  it('accepts ids as bigint or as decimal strings and returns bigint', async () => {
    const fromBigint = serverWith(BigInt(platform.devApp.id));
    const fromString = serverWith(platform.devApp.id);
    expect(fromBigint.applicationId).toBe(BigInt(platform.devApp.id));
    expect(fromString.applicationId).toBe(BigInt(platform.devApp.id));

    const [a, b] = [await userIdOf(fromBigint, 'ids-a'), await userIdOf(fromBigint, 'ids-b')];
    const lobby = await fromBigint.createLobby({ members: [{ userId: a }, { userId: String(b) }] });
    expect(typeof lobby.id).toBe('bigint');
    expect(lobby.applicationId).toBe(BigInt(platform.devApp.id));
    expect(lobby.members.map((m) => m.userId)).toEqual([a, b]);
    expect(await fromString.getLobby(String(lobby.id))).toEqual(await fromBigint.getLobby(lobby.id));
    expect(await fromString.putLobbyMember(String(lobby.id), String(a), { metadata: { slot: '1' } })).toMatchObject({
      userId: a,
      metadata: { slot: '1' },
    });
    expect(
      await fromBigint.bulkUpdateLobbyMembers(lobby.id, [
        { userId: b, remove: true },
        { userId: String(a), additionalName: 'Lead' },
      ]),
    ).toEqual([{ userId: a, metadata: { slot: '1' }, canLinkLobby: false, additionalName: 'Lead' }]);
    await fromString.removeLobbyMember(lobby.id, String(a));
    expect((await fromBigint.getLobby(String(lobby.id))).members).toEqual([]);
  });

  it('refuses malformed ids with SvcppError ERR_SVCPP_INVALID_ARGUMENT before sending anything', async () => {
    const stub = await limitedServer(0);
    try {
      const server = new SvcppServer({ apiBase: stub.apiBase, botToken: 'bot', applicationId: 1n });
      const invalid = (value: unknown) =>
        expect.objectContaining({
          code: 'ERR_SVCPP_INVALID_ARGUMENT',
          message: expect.stringContaining(
            typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : typeof value,
          ),
        });
      for (const bad of [
        '',
        '12a',
        '-5',
        '+5',
        ' 5',
        '1e3',
        '0x10',
        '0',
        '18446744073709551616',
        '123456789012345678901',
        0n,
        -1n,
        1n << 64n,
        5,
        null,
        undefined,
      ]) {
        expect(() => new SvcppServer({ apiBase: stub.apiBase, botToken: 'bot', applicationId: bad as string })).toThrow(
          SvcppError,
        );
        expect(() => new SvcppServer({ apiBase: stub.apiBase, botToken: 'bot', applicationId: bad as string })).toThrow(
          invalid(bad),
        );
        await expect(server.getLobby(bad as string)).rejects.toEqual(invalid(bad));
        await expect(server.putLobbyMember(1n, bad as string)).rejects.toEqual(invalid(bad));
        await expect(server.createLobby({ members: [{ userId: bad as string }] })).rejects.toEqual(invalid(bad));
        await expect(server.bulkUpdateLobbyMembers(1n, [{ userId: bad as string }])).rejects.toEqual(invalid(bad));
        await expect(server.setDirectMessageModerationMetadata(bad as string, {})).rejects.toEqual(invalid(bad));
      }
      expect(stub.requests()).toBe(0);
      // The largest 64-bit value is an id like any other (the stub answers it).
      await expect(server.deleteLobby('18446744073709551615')).resolves.toBeUndefined();
      expect(stub.requests()).toBe(1);
    } finally {
      await stub.close();
    }
  });

  it('trusts the ca option given as a PEM Buffer read from a file, besides the system roots', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcpp-ca-'));
    try {
      const caFile = join(dir, 'platform-ca.pem');
      writeFileSync(caFile, platform.caCertPem!);
      const server = new SvcppServer({
        apiBase: platform.apiBase,
        botToken: platform.devApp.botToken,
        applicationId: platform.devApp.id,
        ca: readFileSync(caFile),
      });
      expect(await server.createProvisionalToken({ externalUserId: 'ca-buffer' })).toMatchObject({
        tokenType: 'Bearer',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
