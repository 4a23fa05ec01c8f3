/**
 * An unmodified discord.js 14 client logged in as the fixture's bot against the platform (only client options are
 * set), and a way to wait for the next interaction it emits that matches.
 */
import { Client, GatewayIntentBits, type Interaction } from 'discord.js';
import type { BotFixture } from './fixture.js';

export interface DiscordJsBot {
  client: Client;
  /** The next interaction the client emits that matches (registered before the trigger, so none is missed). */
  nextInteraction: (match: (i: Interaction) => boolean) => Promise<Interaction>;
}

export async function loginDiscordJs(f: BotFixture): Promise<DiscordJsBot> {
  const pending: Array<{ match: (i: Interaction) => boolean; resolve: (i: Interaction) => void }> = [];
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${f.platform.httpUrl}/api` } });
  client.on('interactionCreate', (interaction) => {
    const index = pending.findIndex((p) => p.match(interaction));
    if (index >= 0) pending.splice(index, 1)[0]!.resolve(interaction);
  });
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(f.botToken);
  await ready;
  return {
    client,
    nextInteraction: (match) => new Promise<Interaction>((resolve) => pending.push({ match, resolve })),
  };
}
