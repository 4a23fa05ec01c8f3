/** Shared steps of the interaction tests (PROTOCOL.md §17): a platform with a test clock, triggering as a user. */
import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type TestResponse } from '../support/http.js';
import { devTokenHeaders, testClock } from '../support/platform.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';
import { botCall, botSession, INTENTS, multipart } from '../bot/helpers.js';

export interface InteractionFixture extends BotFixture {
  clock: ReturnType<typeof testClock>;
}

export async function startInteractionPlatform(): Promise<InteractionFixture> {
  const clock = testClock();
  const fixture = await startBotPlatform({ extra: { now: clock.now } });
  return { ...fixture, clock };
}

export function dev(f: BotFixture, method: string, path: string, json: unknown): Promise<TestResponse> {
  return request(`${f.platform.apiBase}/dev${path}`, { method, json });
}

/** Triggers an interaction as a user (the development route). */
export function trigger(f: BotFixture, json: Record<string, unknown>): Promise<TestResponse> {
  return dev(f, 'POST', '/interactions', json);
}

/**
 * Submits a modal with files (multipart: payload_json + one part per file, named `files[<custom_id>]`). A multipart
 * development request carries the development token (the dev guard refuses cross-site form posts without it).
 */
export function submitWithFiles(
  f: BotFixture,
  json: Record<string, unknown>,
  files: Array<{ customId: string; filename: string; type: string; body: Buffer }>,
): Promise<TestResponse> {
  const body = multipart([
    { name: 'payload_json', body: JSON.stringify(json) },
    ...files.map((file) => ({
      name: `files[${file.customId}]`,
      filename: file.filename,
      type: file.type,
      body: file.body,
    })),
  ]);
  return request(`${f.platform.apiBase}/dev/interactions`, {
    method: 'POST',
    headers: { ...body.headers, ...devTokenHeaders(f.platform) },
    raw: body.raw,
  });
}

export function callback(
  f: BotFixture,
  interaction: { id: string; token: string },
  json: unknown,
  withResponse = false,
): Promise<TestResponse> {
  const query = withResponse ? '?with_response=true' : '';
  return request(`${f.platform.apiBase}/interactions/${interaction.id}/${interaction.token}/callback${query}`, {
    method: 'POST',
    json,
  });
}

export function webhook(
  f: BotFixture,
  token: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<TestResponse> {
  return request(`${f.platform.apiBase}/webhooks/${f.appId}/${token}${path}`, {
    method,
    ...(json !== undefined && { json }),
  });
}

/**
 * A user invokes a new command `name` in the general channel and the bot answers with `modal`: the command
 * interaction (its id is the one a submission names). `session` is the bot's gateway session.
 */
export async function openModal(
  f: BotFixture,
  session: Awaited<ReturnType<typeof botSession>>,
  name: string,
  modal: Record<string, unknown>,
): Promise<{ id: string; token: string }> {
  const id = await createCommand(f, { name, description: 'x' });
  await trigger(f, { type: 2, user_id: f.memberId, application_id: f.appId, channel_id: f.generalId, command_id: id });
  const command = await session.next('INTERACTION_CREATE');
  const shown = await callback(f, command, { type: 9, data: modal });
  if (shown.status !== 204) throw new Error(shown.text);
  return command;
}

export async function createCommand(f: BotFixture, json: Record<string, unknown>): Promise<string> {
  const response = await botCall(f, 'POST', `/applications/${f.appId}/commands`, json);
  if (response.status !== 201 && response.status !== 200) throw new Error(response.text);
  return response.body.id as string;
}

/**
 * An interactions endpoint as an application would run one: it verifies the Ed25519 signature (401 when wrong),
 * answers PING with PONG, and answers every other interaction with `respond(interaction)`.
 */
export async function startInteractionEndpoint(publicKeyHex: string, respond: (interaction: any) => unknown) {
  const received: any[] = [];
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const timestamp = String(req.headers['x-signature-timestamp']);
      const signature = Buffer.from(String(req.headers['x-signature-ed25519'] ?? ''), 'hex');
      if (signature.length !== 64 || !verify(null, Buffer.concat([Buffer.from(timestamp), raw]), key, signature)) {
        res.writeHead(401).end('invalid request signature');
        return;
      }
      const interaction = JSON.parse(raw.toString('utf8'));
      received.push(interaction);
      const answer = interaction.type === 1 ? { type: 1 } : respond(interaction);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A bot gateway session (intent GUILDS) and the reader of one interaction's INTERACTION_CREATE. */
export async function interactionSession(f: BotFixture) {
  const session = await botSession(f, INTENTS.GUILDS);
  return {
    session,
    /** The INTERACTION_CREATE of this interaction (earlier ones a failed test left unread are skipped). */
    async received(id: string): Promise<any> {
      for (;;) {
        const interaction = await session.next('INTERACTION_CREATE');
        if (interaction.id === id) return interaction;
      }
    },
    close: () => session.close(),
  };
}
