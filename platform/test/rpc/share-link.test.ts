/**
 * SHARE_LINK over the local RPC socket (PROTOCOL.md §18.5): the published limits of shareLink (message ≤ 1000,
 * custom_id and link_id ≤ 64), and `referrer_id` silently ignored — no error, and it never reaches the share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../support/platform.js';
import { IpcClient } from './ipc-client.js';
import { LINKS, startRpcPlatform, type RpcPlatform } from './harness.js';

describe.each(LINKS)('local RPC: SHARE_LINK (PROTOCOL.md §18.5), %s local client', (link) => {
  let env: RpcPlatform;
  let apps = 0;
  const newGame = async () => {
    const app = await createApp(env.platform, { name: `Share Game ${process.pid} ${++apps}`, public_client: true });
    return { app, client: (await IpcClient.ready(env.rpc.path, app.id)).client };
  };

  beforeAll(async () => {
    env = await startRpcPlatform({}, {}, link);
  });
  afterAll(() => env.close());

  it('shares the message with custom_id and link_id at their limits, and answers with the published result', async () => {
    const { app, client } = await newGame();
    const args = { message: 'm'.repeat(1000), custom_id: 'c'.repeat(64), link_id: 'l'.repeat(64) };
    const answer = await client.request('SHARE_LINK', args);
    expect(answer).toEqual({
      cmd: 'SHARE_LINK',
      evt: null,
      nonce: expect.any(String),
      data: { success: true, didCopyLink: true, didSendMessage: false },
    });
    expect(env.rpc.desktop.actions.at(-1)).toEqual({
      kind: 'share-link',
      applicationId: app.id,
      message: args.message,
      customId: args.custom_id,
      linkId: args.link_id,
    });
    await client.close();
  });

  it('referrer_id is silently ignored: the share succeeds and carries only custom_id', async () => {
    const { app, client } = await newGame();
    const answer = await client.request('SHARE_LINK', {
      message: 'Join my run',
      custom_id: 'run-42',
      referrer_id: '1234567890',
    });
    expect(answer.evt).toBeNull();
    expect(answer.data.success).toBe(true);
    expect(env.rpc.desktop.actions.at(-1)).toEqual({
      kind: 'share-link',
      applicationId: app.id,
      message: 'Join my run',
      customId: 'run-42',
      linkId: null,
    });
    const onlyReferrer = await client.request('SHARE_LINK', { message: 'Hi', referrer_id: 'x'.repeat(500) });
    expect(onlyReferrer.data.success).toBe(true);
    expect(env.rpc.desktop.actions.at(-1)).toEqual({
      kind: 'share-link',
      applicationId: app.id,
      message: 'Hi',
      customId: null,
      linkId: null,
    });
    await client.close();
  });

  it('refuses over-limit and missing fields with 4000 naming the field, and records nothing', async () => {
    const { client } = await newGame();
    const before = env.rpc.desktop.actions.length;
    const cases: Array<[unknown, string]> = [
      [{ message: 'm'.repeat(1001) }, 'args.message:'],
      [{}, 'args.message:'],
      [{ message: 7 }, 'args.message:'],
      [{ message: 'ok', custom_id: 'c'.repeat(65) }, 'args.custom_id:'],
      [{ message: 'ok', custom_id: 5 }, 'args.custom_id:'],
      [{ message: 'ok', link_id: 'l'.repeat(65) }, 'args.link_id:'],
      [null, 'args.message:'],
    ];
    for (const [args, prefix] of cases) {
      const answer = await client.request('SHARE_LINK', args);
      expect(answer.evt, JSON.stringify(args)).toBe('ERROR');
      expect(answer.data.code).toBe(4000);
      expect(answer.data.message.startsWith(prefix), answer.data.message).toBe(true);
    }
    expect(env.rpc.desktop.actions.length).toBe(before);
    await client.close();
  });
});
