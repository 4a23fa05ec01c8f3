import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlatformConfig } from '../../src/index.js';
import { testDatabase } from '../support/database.js';
import { request } from '../support/http.js';
import { startTestPlatform, tempDir } from '../support/platform.js';

const CONFIG: PlatformConfig = {
  users: [{ username: 'frank', global_name: 'Frank' }],
  guilds: [{ name: 'Config Guild', tag: 'CFG', members: ['frank'], channels: [{ name: 'lobby' }] }],
  applications: [
    {
      name: 'Config Game',
      redirect_uris: ['https://game.example.com/cb'],
      webhook_url: 'https://hooks.example.com/svcpp',
      identity_providers: [{ type: 'OIDC', issuer: 'https://id.example.com', client_id: 'game' }],
      owner: 'frank',
    },
    { name: 'Config Child', parent: 'Config Game' },
  ],
};

describe('start-up', () => {
  it('listens on loopback, creates the development application once and keeps it across restarts', async () => {
    const database = join(tempDir(), 'platform.db');
    const first = await startTestPlatform({ database });
    expect(first.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.apiBase).toBe(`${first.httpUrl}/api/v10`);
    expect(first.gatewayUrl).toBe(`${first.httpUrl.replace('http:', 'ws:')}/gateway`);
    expect(first.devAppCreated).toBe(true);
    expect(first.devApp.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.devApp.id).toMatch(/^\d+$/);
    await first.close();

    const second = await startTestPlatform({ database });
    try {
      expect(second.devAppCreated).toBe(false);
      expect(second.devApp).toEqual(first.devApp);
      const state = await request(`${second.apiBase}/dev/state`);
      expect(state.body.applications).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('applies a config idempotently: applications, users, guilds, parent/child, providers', async () => {
    const database = join(tempDir(), 'config.db');
    const first = await startTestPlatform({ database, config: CONFIG });
    const firstState = (await request(`${first.apiBase}/dev/state`)).body;
    await first.close();
    const second = await startTestPlatform({ database, config: CONFIG });
    try {
      const state = (await request(`${second.apiBase}/dev/state`)).body;
      expect(state.applications).toHaveLength(3);
      expect(state.applications).toEqual(firstState.applications);
      const game = state.applications.find((a: { name: string }) => a.name === 'Config Game');
      const child = state.applications.find((a: { name: string }) => a.name === 'Config Child');
      expect(child.parent_application_id).toBe(game.id);
      expect(game.identity_providers).toEqual([{ type: 'OIDC', issuer: 'https://id.example.com', client_id: 'game' }]);
      expect(game.webhook_url).toBe('https://hooks.example.com/svcpp');
      const frank = state.users.find((u: { username: string }) => u.username === 'frank');
      expect(game.owner_user_id).toBe(frank.id);
      expect(state.users.filter((u: { username: string }) => u.username === 'frank')).toHaveLength(1);
      const guild = state.guilds.find((g: { name: string }) => g.name === 'Config Guild');
      expect(guild).toMatchObject({
        tag: 'CFG',
        member_count: 1,
        channels: [expect.objectContaining({ name: 'lobby', type: 0 })],
      });
    } finally {
      await second.close();
    }
  });

  it('refuses an invalid config with the field errors', async () => {
    await expect(startTestPlatform({ config: { users: [{ username: 'Not Valid!' }] } })).rejects.toThrow(/username/);
    await expect(
      startTestPlatform({ config: { applications: [{ name: 'Orphan', parent: 'Missing Parent' }] } }),
    ).rejects.toThrow(/UNKNOWN_APPLICATION/);
    // What an HTTP body may not carry, a config may not either: an unpaired surrogate never reaches the database.
    await expect(
      startTestPlatform({ config: { users: [{ username: 'ok_name', global_name: 'Bad \ud800' }] } }),
    ).rejects.toThrow(/users.*0.*global_name.*STRING_TYPE_INVALID_UNICODE/);
  });

  it('serves HTTPS and WSS with a self-signed certificate exposed as caCertPem', async () => {
    const platform = await startTestPlatform({ tls: true });
    try {
      expect(platform.httpUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(platform.gatewayUrl).toMatch(/^wss:\/\//);
      expect(platform.caCertPem).toContain('BEGIN CERTIFICATE');
      const discovery = await request(`${platform.httpUrl}/.well-known/openid-configuration`, {
        ca: platform.caCertPem!,
      });
      expect(discovery.body.issuer).toBe(platform.httpUrl);
      const viaName = await request(`${platform.httpUrl.replace('127.0.0.1', 'localhost')}/api/v10/users/@me`, {
        ca: platform.caCertPem!,
        headers: { authorization: `Bot ${platform.devApp.botToken}` },
      });
      expect(viaName.status).toBe(200);
      await expect(request(`${platform.httpUrl}/api/v10/users/@me`)).rejects.toThrow(/self-signed|certificate/);
    } finally {
      await platform.close();
    }
  });

  it('runs from the command line, prints the credentials, and shuts down cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ users: [{ username: 'cli_user' }] }));
    const bin = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        bin,
        '--port',
        '0',
        '--db',
        testDatabase(join(dir, 'cli.db')),
        '--config',
        configFile,
        '--webhook-url',
        'https://hooks.example.com/dev',
      ],
      {
        cwd: dir,
        env: { ...process.env, SVCPP_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (output.includes('public key')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
      void exited.then(() => reject(new Error(`exited early: ${output}`)));
    });
    try {
      expect(output).toContain('development application created');
      const apiBase = /API base\s+(\S+)/.exec(output)![1]!;
      const botToken = /bot token\s+(\S+)/.exec(output)![1]!;
      const devToken = /dev token\s+(\S+)/.exec(output)![1]!;
      const state = await request(`${apiBase}/dev/state`, { headers: { 'x-svcpp-dev-token': devToken } });
      expect(state.body.applications[0].bot_token).toBe(botToken);
      expect(state.body.users.map((u: { username: string }) => u.username)).toContain('cli_user');
      expect(state.body.applications[0].webhook_url).toBe('https://hooks.example.com/dev');
      expect((await request(`${apiBase}/users/@me`, { headers: { authorization: `Bot ${botToken}` } })).status).toBe(
        200,
      );
      // Secrets are printed on the banner only, never in log lines.
      const logLines = output.split('\n').filter((line) => line.startsWith('{'));
      for (const line of logLines) {
        expect(line).not.toContain(botToken);
        expect(line).not.toContain(devToken);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
