// The SDK scenario a foreign build runs (Windows' node.exe under Wine, arm64 Node under qemu-user), from the packed
// package installed beside this file, against the platform running natively on this machine over loopback TLS.
// Plain JavaScript: the foreign Node runs it without a compiler. test/targets/foreign-sdk.ts starts the platform,
// writes the config and the tones, runs this script and judges the recordings.
//
// Two provisional players of the game, each a Client on the chosen backend: the game backend (svcpp/server) links
// their accounts; they connect over TLS, become game friends, one shows a joinable rich presence and invites the
// other, who accepts and joins the lobby with the secret; they exchange a lobby message and a direct message; then
// they meet in the lobby's end-to-end-encrypted call, each speaking a tone of its own from a WAV file (the file
// device) and recording what it hears.
//
// Usage: node scenario.mjs <config.json>; the result goes to config.resultFile (Wine gives a program whose stdout is
// a pipe EBADF, so nothing here relies on stdout).
import { readFileSync, writeFileSync } from 'node:fs';
import { ActivityTypes, CallStatus, Client, LoggingSeverity, RelationshipType, nativeLibraryPath } from 'svcpp';
import { SvcppServer } from 'svcpp/server';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const steps = [];
const started = Date.now();
const log = [];
const finish = (result) =>
  writeFileSync(
    config.resultFile,
    JSON.stringify({ ...result, steps, log, system: `${process.platform}-${process.arch}` }, null, 2),
  );
// Each step is written as it is reached, so a process that dies (a crash in native code) still says how far it got.
const step = (name) => {
  steps.push({ name, ms: Date.now() - started });
  finish({ ok: false, error: `still running after "${name}"` });
};

/** Resolves once `check()` is truthy (polled every 20 ms); rejects naming `what` after `ms`. */
async function until(check, what, ms = config.waitMs) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The first `name` event of `client` whose arguments satisfy `match`, listened for from now on. */
function nextEvent(client, name, match = () => true) {
  return new Promise((resolve) => {
    const listener = (...args) => {
      if (!match(...args)) return;
      client.off(name, listener);
      resolve(args);
    };
    client.on(name, listener);
  });
}

const within = (promise, what, ms = config.waitMs) =>
  Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms).unref()),
  ]);

async function player(server, externalUserId) {
  const linked = await server.createProvisionalToken({ externalUserId, preferredGlobalName: externalUserId });
  const client = new Client({
    backend: config.backend,
    apiBase: config.apiBase,
    webBase: config.webBase,
    caFile: config.caFile,
    applicationId: BigInt(config.applicationId),
    logMinSeverity: LoggingSeverity.Warning,
  });
  client.on('log', (message) => log.push(`${externalUserId}: ${message}`));
  await client.updateToken(linked.accessToken);
  await client.connect();
  const me = client.currentUser;
  if (!me?.isProvisional) throw new Error(`${externalUserId} is not a provisional account`);
  // A steady tone is neither noise nor echo: audio processing would reshape it (and Windows builds have none).
  client.voice.setNoiseSuppression(false);
  client.voice.setAutomaticGainControl(false);
  client.voice.setEchoCancellation(false);
  return { client, id: me.id, username: me.username };
}

async function scenario() {
  const server = new SvcppServer({
    apiBase: config.apiBase,
    botToken: config.botToken,
    applicationId: config.applicationId,
    ca: readFileSync(config.caFile, 'utf8'),
  });
  const ada = await player(server, `ada-${config.run}`);
  const bob = await player(server, `bob-${config.run}`);
  step('both provisional players connected over TLS');
  try {
    await ada.client.sendGameFriendRequest(bob.username);
    await until(
      () => bob.client.getRelationship(ada.id)?.gameRelationshipType === RelationshipType.PendingIncoming,
      'Bob sees the request',
    );
    await bob.client.acceptGameFriendRequest(ada.id);
    await until(
      () => ada.client.getRelationship(bob.id)?.gameRelationshipType === RelationshipType.Friend,
      'Ada sees the friendship',
    );
    step('game friends');

    const secret = `scenario-${config.run}`;
    const lobbyId = await ada.client.createOrJoinLobby(secret);
    await ada.client.updateRichPresence({
      type: ActivityTypes.Playing,
      state: 'In a lobby',
      details: 'Duos',
      party: { id: `party-${config.run}`, currentSize: 1, maxSize: 2 },
      secrets: { join: secret },
    });
    await until(() => bob.client.getUser(ada.id)?.gameActivity?.state === 'In a lobby', "Bob sees Ada's presence");
    step('presence seen by the friend');

    const invited = nextEvent(bob.client, 'activityInviteCreated');
    await ada.client.sendActivityInvite(bob.id, 'join me');
    const [invite] = await within(invited, 'Bob receives the invite');
    const joinSecret = await bob.client.acceptActivityInvite(invite);
    if (joinSecret !== secret) throw new Error(`the invite carried ${joinSecret}, not the lobby's secret`);
    const joined = await bob.client.createOrJoinLobby(joinSecret);
    if (joined !== lobbyId) throw new Error(`Bob joined ${joined}, not Ada's lobby ${lobbyId}`);
    await until(() => ada.client.getLobby(lobbyId)?.members.some((m) => m.id === bob.id), 'Ada sees Bob in the lobby');
    step('invite accepted, lobby joined with its secret');

    // Every messageCreated each side sees (a member is told of its own lobby messages too): wait for the one sent.
    const created = (client) => {
      const ids = [];
      client.on('messageCreated', (id) => ids.push(id));
      return ids;
    };
    const adaSaw = created(ada.client);
    const bobSaw = created(bob.client);
    const sentInLobby = await bob.client.sendLobbyMessage(lobbyId, 'gl hf');
    await until(() => adaSaw.includes(sentInLobby), 'Ada receives the lobby message');
    if (ada.client.getMessage(sentInLobby)?.content !== 'gl hf') throw new Error('the lobby message differs');
    const sentDirect = await ada.client.sendUserMessage(bob.id, 'see you at 8');
    await until(() => bobSaw.includes(sentDirect), 'Bob receives the direct message');
    if (bob.client.getMessage(sentDirect)?.content !== 'see you at 8') throw new Error('the direct message differs');
    step('lobby and direct messages');

    // The call: both join with a silent microphone and record what they hear; once each sees the other in the
    // call, both switch their microphone to their tone, so neither tone starts before the other listens.
    for (const [p, heard] of [
      [ada, config.heard.ada],
      [bob, config.heard.bob],
    ]) {
      await p.client.voice.setInputDevice('null');
      await p.client.voice.setOutputDevice(`file:${heard}`);
    }
    const calls = [ada, bob].map((p) => p.client.startCall(lobbyId));
    for (const call of calls) call.setVadThreshold(false, -50);
    await within(Promise.all(calls.map((call) => call.waitForStatus(CallStatus.Connected))), 'both calls connected');
    await until(() => calls.every((call) => call.participants.length === 2), 'each call sees both participants');
    step('both in the end-to-end-encrypted call');
    const heardOther = (call, other) =>
      new Promise((resolve) => {
        let on = false;
        call.on('speakingChanged', (user, speaking) => {
          if (user !== other) return;
          if (speaking) on = true;
          else if (on) resolve();
        });
      });
    const spoken = [heardOther(calls[0], bob.id), heardOther(calls[1], ada.id)];
    await ada.client.voice.setInputDevice(`file:${config.tones.ada}`);
    await bob.client.voice.setInputDevice(`file:${config.tones.bob}`);
    await within(Promise.all(spoken), 'each saw the other start and stop speaking', config.waitMs * 2);
    step('each heard the other speak');
    await ada.client.voice.endCall(lobbyId);
    await bob.client.voice.endCall(lobbyId);
    step('calls ended');
    // Which binary served the run: the prebuild folder of this system, inside the installed package.
    return { lobbyId: String(lobbyId), library: nativeLibraryPath() };
  } finally {
    await Promise.all([ada.client.close(), bob.client.close()]);
  }
}

try {
  const result = await scenario();
  finish({ ok: true, ...result });
} catch (error) {
  finish({ ok: false, error: String(error?.stack ?? error), code: error?.code });
  process.exitCode = 1;
}
