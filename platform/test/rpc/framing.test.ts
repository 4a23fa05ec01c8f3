import { existsSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSocketDir, ipcPath } from '../../src/rpc/socket-path.js';
import { header, IpcClient } from './ipc-client.js';
import { startRpcPlatform, type RpcPlatform } from './harness.js';

describe('local RPC framing and handshake (PROTOCOL.md §12.1–12.3)', () => {
  let env: RpcPlatform;
  beforeAll(async () => {
    env = await startRpcPlatform();
  });
  afterAll(() => env.close());

  /** The server still serves: a fresh connection handshakes and gets READY. */
  const stillServing = async () => {
    const { client, ready } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    expect(ready.evt).toBe('READY');
    await client.close();
  };
  const closeFrame = async (client: IpcClient) => {
    const frame = await client.next();
    await client.ended;
    return frame;
  };

  it('listens on discord-ipc-0 of its directory, user-only (0600)', () => {
    expect(env.rpc.path).toBe(join(env.dir, 'discord-ipc-0'));
    expect(statSync(env.rpc.path).mode & 0o777).toBe(0o600);
    expect(statSync(env.rpc.path).isSocket()).toBe(true);
  });

  it('handshake: READY carries v 1, the platform config and the desktop user', async () => {
    const { client, ready } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    const host = new URL(env.platform.apiBase).host;
    expect(ready).toEqual({
      cmd: 'DISPATCH',
      evt: 'READY',
      data: {
        v: 1,
        config: { cdn_host: host, api_endpoint: `//${host}/api`, environment: 'production' },
        user: {
          id: env.desk.id,
          username: 'desk',
          discriminator: '0',
          global_name: 'Desk',
          avatar: null,
          bot: false,
          flags: 0,
          premium_type: 0,
        },
      },
    });
    await client.close();
  });

  it('handshake with another version is closed with 4004', async () => {
    const client = await IpcClient.connect(env.rpc.path);
    client.sendJson(0, { v: 2, client_id: env.platform.devApp.id });
    expect(await closeFrame(client)).toEqual({ op: 2, body: { code: 4004, message: 'Invalid Version' } });
    await stillServing();
  });

  it('handshake with an unknown or missing client id is closed with 4000', async () => {
    for (const clientId of ['123456789012345678', undefined, 'not-a-snowflake']) {
      const client = await IpcClient.connect(env.rpc.path);
      client.sendJson(0, { v: 1, ...(clientId !== undefined && { client_id: clientId }) });
      expect(await closeFrame(client)).toEqual({ op: 2, body: { code: 4000, message: 'Invalid Client ID' } });
    }
    await stillServing();
  });

  it('a FRAME before the HANDSHAKE is closed with 1003', async () => {
    const client = await IpcClient.connect(env.rpc.path);
    client.sendJson(1, { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'x' });
    expect(await closeFrame(client)).toEqual({
      op: 2,
      body: { code: 1003, message: 'Expected a HANDSHAKE frame first' },
    });
    await stillServing();
  });

  it('a second HANDSHAKE is closed with 1003', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendJson(0, { v: 1, client_id: env.platform.devApp.id });
    expect(await closeFrame(client)).toEqual({ op: 2, body: { code: 1003, message: 'Already handshaken' } });
    await stillServing();
  });

  it('an unknown opcode is closed with 1003', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendJson(7, {});
    expect(await closeFrame(client)).toEqual({ op: 2, body: { code: 1003, message: 'Unknown opcode 7' } });
    await stillServing();
  });

  it('a handshake that is not a JSON object is closed with 1003', async () => {
    const client = await IpcClient.connect(env.rpc.path);
    client.sendRaw(Buffer.concat([header(0, 5), Buffer.from('{v:1}')]));
    expect(await closeFrame(client)).toEqual({
      op: 2,
      body: { code: 1003, message: 'The HANDSHAKE payload must be a JSON object' },
    });
    await stillServing();
  });

  it('an oversized frame (declared above 64 KiB) is closed with 1003 before its body arrives', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendRaw(header(1, 64 * 1024 + 1));
    expect(await closeFrame(client)).toEqual({
      op: 2,
      body: { code: 1003, message: 'Frame too large: 65537 bytes (at most 65536)' },
    });
    await stillServing();
  });

  it('invalid JSON in a FRAME is answered with ERROR 4000 and the connection goes on', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    for (const text of ['{"cmd": "SET_ACTIVITY",', '[1,2]', '"text"']) {
      client.sendRaw(Buffer.concat([header(1, Buffer.byteLength(text)), Buffer.from(text)]));
      expect((await client.next()).body).toEqual({
        cmd: null,
        evt: 'ERROR',
        nonce: null,
        data: { code: 4000, message: 'Payload is not a JSON object' },
      });
    }
    const answer = await client.request('SET_ACTIVITY', { pid: 1 });
    expect(answer).toEqual({ cmd: 'SET_ACTIVITY', evt: null, nonce: expect.any(String), data: null });
    await client.close();
  });

  it('a declared length shorter than the JSON is an invalid payload; the rest of the bytes then form an unreadable frame', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    const text = JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'short' });
    // Header says 10 bytes: the server reads `{"cmd":"SE` as the frame, then the next 8 bytes as a header.
    client.sendRaw(Buffer.concat([header(1, 10), Buffer.from(text)]));
    expect((await client.next()).body).toEqual({
      cmd: null,
      evt: 'ERROR',
      nonce: null,
      data: { code: 4000, message: 'Payload is not a JSON object' },
    });
    const closing = await client.next();
    expect(closing.op).toBe(2);
    expect(closing.body.code).toBe(1003);
    await client.ended;
    await stillServing();
  });

  it('a frame cut short by the client closing is dropped without an answer', async () => {
    const client = await IpcClient.connect(env.rpc.path);
    client.sendRaw(Buffer.concat([header(0, 100), Buffer.from('{"v":1')]));
    await client.close();
    expect(client.queued()).toEqual([]);
    await stillServing();
  });

  it('command payload errors: missing cmd, bad args, long nonce → 4000; unknown command → 4002', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendJson(1, { args: {}, nonce: 'a' });
    expect((await client.next()).body).toEqual({
      cmd: null,
      evt: 'ERROR',
      nonce: 'a',
      data: { code: 4000, message: 'cmd is required' },
    });
    client.sendJson(1, { cmd: 'SET_ACTIVITY', args: [1], nonce: 'b' });
    expect((await client.next()).body).toEqual({
      cmd: 'SET_ACTIVITY',
      evt: 'ERROR',
      nonce: 'b',
      data: { code: 4000, message: 'args must be an object' },
    });
    client.sendJson(1, { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'n'.repeat(65) });
    expect((await client.next()).body).toEqual({
      cmd: 'SET_ACTIVITY',
      evt: 'ERROR',
      nonce: null,
      data: { code: 4000, message: 'nonce must be a string of at most 64 characters' },
    });
    expect(await client.request('GET_GUILDS')).toEqual({
      cmd: 'GET_GUILDS',
      evt: 'ERROR',
      nonce: expect.any(String),
      data: { code: 4002, message: 'Invalid command: GET_GUILDS' },
    });
    expect(await client.request('toString')).toMatchObject({ evt: 'ERROR', data: { code: 4002 } });
    await client.close();
  });

  it('an unpaired surrogate anywhere in a FRAME, for every command, is ERROR 4000 at its path before the command runs; clean cmd and nonce are echoed', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    const lone = 'a\ud800b';
    const notText = 'Must be valid Unicode text (no unpaired surrogate).';
    // Every served command with a string argument of its own (PROTOCOL.md §12.3), each carrying one lone surrogate.
    const cases: Array<[string, Record<string, unknown>, string, string?]> = [
      ['SET_ACTIVITY', { pid: 1, activity: { type: 0, state: lone } }, 'args.activity.state'],
      [
        'SET_ACTIVITY',
        { pid: 1, activity: { type: 0, assets: { large_text: lone } } },
        'args.activity.assets.large_text',
      ],
      ['AUTHORIZE', { client_id: env.platform.devApp.id, scopes: ['identify', lone] }, 'args.scopes.1'],
      ['AUTHENTICATE', { access_token: lone }, 'args.access_token'],
      ['SUBSCRIBE', {}, 'evt', lone],
      ['UNSUBSCRIBE', {}, 'evt', lone],
      ['SEND_ACTIVITY_JOIN_INVITE', { user_id: lone }, 'args.user_id'],
      ['CLOSE_ACTIVITY_REQUEST', { user_id: lone }, 'args.user_id'],
      ['CLOSE_ACTIVITY_JOIN_REQUEST', { user_id: lone }, 'args.user_id'],
      ['REGISTER_LAUNCH_COMMAND', { command: `/usr/bin/game ${lone}` }, 'args.command'],
      ['OPEN_MESSAGE', { message_id: lone }, 'args.message_id'],
      ['OPEN_CONNECTED_GAMES_SETTINGS', { [lone]: 1 }, 'args'],
      ['SET_SHOWING_CHAT', { showing: true, note: lone }, 'args.note'],
      ['SHARE_LINK', { message: lone }, 'args.message'],
    ];
    for (const [cmd, args, path, evt] of cases) {
      const answer = await client.request(cmd, args, evt);
      expect([cmd, answer]).toEqual([
        cmd,
        { cmd, evt: 'ERROR', nonce: expect.any(String), data: { code: 4000, message: `${path}: ${notText}` } },
      ]);
    }
    // In cmd or nonce themselves: not echoed.
    client.sendJson(1, { cmd: `SET_ACTIVITY${lone}`, args: { pid: 1 }, nonce: 'n1' });
    expect((await client.next()).body).toEqual({
      cmd: null,
      evt: 'ERROR',
      nonce: 'n1',
      data: { code: 4000, message: `cmd: ${notText}` },
    });
    client.sendJson(1, { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: lone });
    expect((await client.next()).body).toEqual({
      cmd: 'SET_ACTIVITY',
      evt: 'ERROR',
      nonce: null,
      data: { code: 4000, message: `nonce: ${notText}` },
    });
    // A pair (an emoji) is text; the connection goes on.
    const fine = await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'a\ud83d\ude00b' } });
    expect(fine.data).toMatchObject({ state: 'a\u{1f600}b' });
    await client.close();
  });

  it('PING is answered with PONG carrying the same payload', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendJson(3, 'f9a4b1c2');
    expect(await client.next()).toEqual({ op: 4, body: 'f9a4b1c2' });
    await client.close();
  });

  it('a CLOSE from the client is answered with CLOSE 1000 and the socket ends', async () => {
    const { client } = await IpcClient.ready(env.rpc.path, env.platform.devApp.id);
    client.sendJson(2, {});
    expect(await closeFrame(client)).toEqual({ op: 2, body: { code: 1000, message: 'Closed by the client' } });
  });
});

describe('socket paths (PROTOCOL.md §12.1)', () => {
  it('the directory is XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, then /tmp; Windows uses the named pipe', () => {
    expect(defaultSocketDir({ XDG_RUNTIME_DIR: '/run/user/1', TMPDIR: '/t' })).toBe('/run/user/1');
    expect(defaultSocketDir({ TMPDIR: '/t', TMP: '/u' })).toBe('/t');
    expect(defaultSocketDir({ TMP: '/u', TEMP: '/v' })).toBe('/u');
    expect(defaultSocketDir({ TEMP: '/v' })).toBe('/v');
    expect(defaultSocketDir({})).toBe('/tmp');
    expect(ipcPath(3, '/run/user/1', 'linux')).toBe('/run/user/1/discord-ipc-3');
    expect(ipcPath(3, 'C:\\Temp', 'win32')).toBe('\\\\?\\pipe\\discord-ipc-3');
  });

  it('a slot someone listens on is skipped; a stale socket file is replaced', async () => {
    const first = await startRpcPlatform();
    // A stale file in slot 1 (nothing listens), a live listener in slot 0 (the first platform).
    const stale = join(first.dir, 'discord-ipc-1');
    writeFileSync(stale, '');
    const second = await startRpcPlatform({ socketDir: first.dir });
    try {
      expect(first.rpc.path).toBe(join(first.dir, 'discord-ipc-0'));
      expect(second.rpc.path).toBe(stale);
      expect(statSync(stale).isSocket()).toBe(true);
      const { client, ready } = await IpcClient.ready(second.rpc.path, second.platform.devApp.id);
      expect(ready.data.user.id).toBe(second.desk.id);
      await client.close();
    } finally {
      await second.platform.close();
      await first.close();
    }
    expect(existsSync(stale)).toBe(false);
  });

  it('when all ten slots are taken the start fails and names the directory', async () => {
    const env = await startRpcPlatform();
    const listeners: net.Server[] = [];
    try {
      for (let slot = 1; slot < 10; slot++) {
        const server = net.createServer();
        await new Promise<void>((resolve) => server.listen(join(env.dir, `discord-ipc-${slot}`), resolve));
        listeners.push(server);
      }
      await expect(startRpcPlatform({ socketDir: env.dir })).rejects.toThrow(
        `every local RPC slot discord-ipc-0..9 in ${env.dir} is taken`,
      );
    } finally {
      for (const server of listeners) await new Promise((resolve) => server.close(resolve));
      await env.close();
    }
  });
});
