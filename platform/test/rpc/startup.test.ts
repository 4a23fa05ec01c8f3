import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { startTestPlatform, tempDir } from '../support/platform.js';
import { IpcClient } from './ipc-client.js';

describe('starting the local client with the platform (PROTOCOL.md §12.7)', () => {
  let platform: RunningPlatform | undefined;
  const dirs: string[] = [];
  /** A socket directory of this test, removed afterwards. */
  const socketDir = () => {
    dirs.push(tempDir());
    return dirs.at(-1)!;
  };
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is off unless the rpc option is given', async () => {
    platform = await startTestPlatform();
    expect(platform.rpc).toBeUndefined();
  });

  it('in development mode the desktop user defaults to dev_user', async () => {
    platform = await startTestPlatform({ rpc: { socketDir: socketDir(), applicationsDir: null } });
    const { client, ready } = await IpcClient.ready(platform.rpc!.path, platform.devApp.id);
    expect(ready.data.user.username).toBe('dev_user');
    await client.close();
  });

  it('outside development mode the desktop user is required', async () => {
    await expect(startTestPlatform({ devMode: false, rpc: { socketDir: socketDir() } })).rejects.toThrow(
      'needs its desktop user',
    );
  });

  it('outside development mode auto-approve is refused', async () => {
    await expect(
      startTestPlatform({ devMode: false, rpc: { user: 'dev_user', socketDir: socketDir(), autoApprove: true } }),
    ).rejects.toThrow('development mode only');
  });

  it('a desktop user that is not a full account is refused', async () => {
    await expect(startTestPlatform({ rpc: { user: 'nobody_here', socketDir: socketDir() } })).rejects.toThrow(
      'is not a full account',
    );
  });

  it('with auto-approve (development) AUTHORIZE answers a code without a pending request', async () => {
    platform = await startTestPlatform({ rpc: { socketDir: socketDir(), autoApprove: true, applicationsDir: null } });
    const { client } = await IpcClient.ready(platform.rpc!.path, platform.devApp.id);
    const answer = await client.request('AUTHORIZE', { client_id: platform.devApp.id, scopes: ['identify'] });
    expect(answer.data).toEqual({ code: expect.any(String) });
    expect(platform.rpc!.consent.pending()).toEqual([]);
    await client.close();
  });

  it('closing the platform closes game connections with CLOSE 1000 and removes the socket', async () => {
    platform = await startTestPlatform({ rpc: { socketDir: socketDir(), applicationsDir: null } });
    const path = platform.rpc!.path;
    const { client } = await IpcClient.ready(path, platform.devApp.id);
    await platform.close();
    platform = undefined;
    expect((await client.next()).body).toEqual({ code: 1000, message: 'The local client is shutting down' });
    await client.ended;
    await expect(IpcClient.connect(path)).rejects.toThrow();
  });
});
