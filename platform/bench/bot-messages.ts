/**
 * Bot API benchmark (PROTOCOL.md §14):
 *  1. messages created per second over HTTP (`POST /channels/{id}/messages`, a few requests in flight) with the
 *     bot's own gateway session receiving every MESSAGE_CREATE — the clock stops at the last one received;
 *  2. GUILD_CREATE for a guild of 10,000 members: its size and the time from Identify to its arrival, and the
 *     full member list through op 8 (GUILD_MEMBERS_CHUNK × 10).
 *
 *   node --import tsx platform/bench/bot-messages.ts [--smoke]
 *
 * The real platform (in-memory database) and the clients run in this one process on loopback. Prints figures;
 * asserts nothing. Figures taken while other work loads the machine are indicative only.
 */
import { performance } from 'node:perf_hooks';
import { startPlatform } from '../src/index.js';
import { GatewayClient } from '../test/support/gateway-client.js';

const smoke = process.argv.includes('--smoke');
const MESSAGES = smoke ? 200 : 5000;
const IN_FLIGHT = 8;
const MEMBERS = smoke ? 1000 : 10_000;
const GUILDS = 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const GUILD_MEMBERS = 1 << 1;

async function main(): Promise<void> {
  const platform = await startPlatform({
    port: 0,
    logger: false,
    // The benchmark measures the API, not its rate limits.
    rateLimits: { global: { limit: 1_000_000, windowSeconds: 1 } },
    config: {
      applications: [{ name: 'Bench Bot', privileged_intents: { guild_members: true, message_content: true } }],
      guilds: [
        {
          name: 'Bench Guild',
          owner: 'dev_user',
          bots: ['Bench Bot'],
          channels: [{ name: 'general', type: 0 }],
          roles: [
            { name: 'bot', permissions: String((1n << 10n) | (1n << 11n) | (1n << 16n)), members: ['Bench Bot'] },
          ],
        },
      ],
    },
  });
  try {
    const app = platform.store.applications.findByName('Bench Bot')!;
    const guild = platform.store.guilds.findByName('Bench Guild')!;
    const channel = platform.store.guilds.findChannelByName(guild.id, 'general')!;
    await messagesPerSecond(platform.apiBase, platform.gatewayUrl, app.botToken, channel.id);

    // A 10,000-member guild: users and memberships written straight to the store (setup, not measured).
    platform.store.transaction(() => {
      const now = Date.now();
      for (let i = 0; i < MEMBERS; i++) {
        const id = String(2_000_000_000_000_000_000n + BigInt(i));
        platform.store.users.insert({
          ...platform.store.users.get(app.botUserId)!,
          id,
          username: `member_${i}`,
          globalName: null,
          bot: false,
          createdAt: now,
        });
        platform.store.botGuilds.upsertMember({
          guildId: guild.id,
          userId: id,
          nick: null,
          avatar: null,
          banner: null,
          bio: null,
          roles: [],
          joinedAt: now,
          flags: 0,
          communicationDisabledUntil: null,
        });
      }
    });
    await guildCreate(platform.gatewayUrl, app.botToken, guild.id);
  } finally {
    await platform.close();
  }
}

async function messagesPerSecond(apiBase: string, gatewayUrl: string, token: string, channelId: string): Promise<void> {
  const client = new GatewayClient({
    url: gatewayUrl,
    token,
    intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT,
    autoReconnect: false,
  });
  let received = 0;
  let allReceived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allReceived = resolve));
  client.on('dispatch', (t: string) => {
    if (t === 'MESSAGE_CREATE' && ++received === MESSAGES) allReceived();
  });
  await client.connect();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < MESSAGES) {
      const i = next++;
      const response = await fetch(`${apiBase}/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          content: `bench message ${i}`,
          embeds: [{ title: 'bench', fields: [{ name: 'i', value: String(i) }] }],
        }),
      });
      if (response.status !== 200) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await done;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `messages: ${MESSAGES} created over HTTP (${IN_FLIGHT} in flight), each MESSAGE_CREATE received: ` +
      `${(MESSAGES / seconds).toFixed(0)} messages/s (${seconds.toFixed(2)} s)`,
  );
  await client.close();
}

async function guildCreate(gatewayUrl: string, token: string, guildId: string): Promise<void> {
  const client = new GatewayClient({ url: gatewayUrl, token, intents: GUILDS | GUILD_MEMBERS, autoReconnect: false });
  let bytes = 0;
  let arrived = 0;
  const created = new Promise<void>((resolve) =>
    client.on('dispatch', (t: string, d: { id?: string }) => {
      if (t === 'GUILD_CREATE' && d.id === guildId) {
        bytes = Buffer.byteLength(JSON.stringify(d));
        arrived = performance.now();
        resolve();
      }
    }),
  );
  const identified = performance.now();
  await client.connect();
  await created;
  console.log(
    `GUILD_CREATE for ${MEMBERS} members: ${(bytes / 1024).toFixed(1)} KiB, ${(arrived - identified).toFixed(1)} ms ` +
      `from connect to arrival (large guild: the bot only in members)`,
  );

  let members = 0;
  let chunks = 0;
  let chunkBytes = 0;
  const started = performance.now();
  const all = new Promise<void>((resolve) =>
    client.on('dispatch', (t: string, d: { members: unknown[]; chunk_index: number; chunk_count: number }) => {
      if (t !== 'GUILD_MEMBERS_CHUNK') return;
      members += d.members.length;
      chunks++;
      chunkBytes += Buffer.byteLength(JSON.stringify(d));
      if (chunks === d.chunk_count) resolve();
    }),
  );
  client.send(8, { guild_id: guildId, query: '', limit: 0, nonce: 'bench' });
  await all;
  console.log(
    `op 8 full list: ${members} members in ${chunks} chunks, ${(chunkBytes / 1024 / 1024).toFixed(2)} MiB, ` +
      `${(performance.now() - started).toFixed(0)} ms`,
  );
  await client.close();
}

await main();
