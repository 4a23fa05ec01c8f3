/**
 * Many clients in one process share the process's I/O threads (native/SEMANTICS.md "Threads"). End to end on both
 * backends against the real platform: while members of a lobby keep receiving its messages, other clients of the same
 * process come and go — dropped right after creation, while connecting, and while a message send of theirs is in
 * flight — and every member still receives every message, and every dropped client's pending calls end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../backends.js';
import { connectPlayer, connectProvisionalPlayer } from './chat-support.js';
import type { Player } from './player.js';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { e2eClient, until } from './support.js';

const MEMBERS = 6;
const ROUNDS = 8;

describe.each(BACKENDS)('clients coming and going next to a busy lobby over %s', (backend) => {
  let e2e: E2EPlatform;
  const members: Player[] = [];
  let lobbyId: bigint;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    for (let i = 0; i < MEMBERS; i++) members.push(await connectProvisionalPlayer(e2e, backend, `Member${i}`));
    lobbyId = await members[0]!.client.createOrJoinLobby(`shared-io-${backend}`);
    for (const member of members.slice(1)) await member.client.createOrJoinLobby(`shared-io-${backend}`);
  });
  afterAll(async () => {
    for (const member of members) await member.client.close();
    await e2e.close();
  });

  it('every member receives every message while other clients are dropped connecting, mid-request and at once', async () => {
    // The snapshot messageCreated carries is what the member read at the event.
    const received = (member: Player, content: string) =>
      member
        .of('messageCreated')
        .some(([, message]) => (message as { content?: string } | undefined)?.content === content);
    for (let round = 0; round < ROUNDS; round++) {
      // A client that sends in this lobby and is dropped with its send in flight.
      const sender = await connectPlayer(
        e2eClient(e2e, backend),
        await provisionalToken(e2e, `shared-io-${backend}-${round}`, `Churn${round}`),
      );
      await sender.client.createOrJoinLobby(`shared-io-${backend}`);
      const inFlight = sender.client.sendLobbyMessage(lobbyId, `dropped mid-send ${round}`);
      // A client dropped while it connects.
      const connecting = e2eClient(e2e, backend);
      await connecting.updateToken(await provisionalToken(e2e, `shared-io-${backend}-c${round}`, `Conn${round}`));
      const connected = connecting.connect();
      // A client dropped right after its creation.
      const brief = e2eClient(e2e, backend);

      const content = `round ${round}`;
      const sent = members[round % MEMBERS]!.client.sendLobbyMessage(lobbyId, content);
      await brief.close();
      await connecting.close();
      await sender.client.close();
      // The dropped clients' pending calls have ended: a connect that was still under way with ERR_SVCPP_CLOSED, a send
      // with its id when it completed before the drop, else with ERR_SVCPP_CLIENT_DESTROYED.
      await connected.then(
        () => undefined,
        (error: { code?: string }) => expect(error.code).toBe('ERR_SVCPP_CLOSED'),
      );
      await inFlight.then(
        (id) => expect(id).toBeTypeOf('bigint'),
        (error: { code?: string }) => expect(error.code).toBe('ERR_SVCPP_CLIENT_DESTROYED'),
      );
      await sent;
      for (const member of members)
        await until(() => received(member, content), `member ${member.id} receives ${content}`);
    }
  });
});
