/**
 * SDK calls made from inside event handlers, on both backends, against the real platform. Game code reacts to
 * events: a handler that joins a lobby, answers a message or closes the client must just work. On koffi a
 * handler used to run inside the native callback pump, and an async SDK call made there overflowed koffi's
 * stack ("Maximum call stack size exceeded" from the pump timer, uncaught: the process died).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../backends.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { connectProvisionalPlayer } from './chat-support.js';
import { fromEventHandler, until } from './support.js';

describe.each(BACKENDS)('SDK calls from inside event handlers over %s', (backend) => {
  let e2e: E2EPlatform;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('an async call made synchronously inside a handler completes: create a lobby, then chat from it', async () => {
    const ada = await connectProvisionalPlayer(e2e, backend, 'Ada');
    try {
      const lobbyId = await fromEventHandler(ada.client, () => ada.client.createOrJoinLobby(`reentrant-${backend}`));
      expect(ada.client.lobbyIds).toContain(lobbyId);
      const sent = await fromEventHandler(ada.client, () => ada.client.sendLobbyMessage(lobbyId, 'from a handler'));
      await until(() => ada.client.getMessage(sent)?.content === 'from a handler', 'the message is cached');
    } finally {
      await ada.client.close();
    }
  });

  it('a chain of handlers: each messageCreated handler sends the next message', async () => {
    const ada = await connectProvisionalPlayer(e2e, backend, 'Bea');
    try {
      const lobbyId = await ada.client.createOrJoinLobby(`chain-${backend}`);
      const seen: string[] = [];
      const failures: unknown[] = [];
      ada.client.on('messageCreated', (messageId) => {
        const content = ada.client.getMessage(messageId)?.content ?? '';
        seen.push(content);
        const n = Number(content.split(' ')[1]);
        if (n < 5) ada.client.sendLobbyMessage(lobbyId, `hop ${n + 1}`).catch((error: unknown) => failures.push(error));
      });
      await ada.client.sendLobbyMessage(lobbyId, 'hop 1');
      await until(() => seen.length === 5 || failures.length > 0, 'five hops');
      expect(failures).toEqual([]);
      expect(seen).toEqual(['hop 1', 'hop 2', 'hop 3', 'hop 4', 'hop 5']);
    } finally {
      await ada.client.close();
    }
  });

  it('closing the client inside a handler settles what was pending with ClientDestroyed', async () => {
    const ada = await connectProvisionalPlayer(e2e, backend, 'Cyd');
    let pending: Promise<bigint> | undefined;
    const closed = new Promise<void>((resolve, reject) => {
      ada.client.once('log', () => {
        pending = ada.client.createOrJoinLobby(`closed-${backend}`);
        ada.client.close().then(resolve, reject);
      });
    });
    // eslint-disable-next-line no-self-assign -- the setter writes a log line: the handler runs on it
    ada.client.applicationId = ada.client.applicationId;
    await closed;
    await expect(pending).rejects.toMatchObject({ code: 'ERR_SVCPP_CLIENT_DESTROYED' });
  });
});
