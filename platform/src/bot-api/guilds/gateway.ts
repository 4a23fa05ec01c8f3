/**
 * The guild side of the bot gateway (PROTOCOL.md §14.3): READY lists the bot's guilds, GUILD_CREATE follows for each
 * (intent GUILDS), op 8 Request Guild Members answers with GUILD_MEMBERS_CHUNK (and RATE_LIMITED for a second
 * full-list request within 30 s), op 43 Request Channel Info answers with CHANNEL_INFO.
 */
import { z } from 'zod';
import type { GatewayHandlers } from '../../areas/area.js';
import type { PlatformKernel } from '../../kernel.js';
import type { GatewayCommand, GatewaySessionHandle } from '../../gateway/types.js';
import { snowflakeSchema } from '../../http/validation.js';
import type { MemberRecord } from '../../store/bot-types.js';
import type { GuildRecord } from '../../store/types.js';
import { fullChannelJson, guildJson, joinedAt, memberJson } from './bot-serialize.js';
import { Intent, type GuildService } from './service.js';
import type { VoiceChannelState } from './voice-channel-state.js';

const OP_REQUEST_GUILD_MEMBERS = 8;
const OP_REQUEST_CHANNEL_INFO = 43;
/** Members per GUILD_MEMBERS_CHUNK. */
const CHUNK_SIZE = 1000;
/** A guild above this many members is `large`: GUILD_CREATE then lists only the bot. */
const LARGE_THRESHOLD = 250;
/** One full member list per guild per bot in this window (published limit). */
const FULL_LIST_WINDOW_MS = 30_000;
const GUILD_VOICE = 2;

const requestMembersSchema = z.object({
  guild_id: snowflakeSchema,
  query: z.string().max(100).optional(),
  limit: z.number().int().min(0).max(100_000),
  presences: z.boolean().optional(),
  user_ids: z.union([snowflakeSchema, z.array(snowflakeSchema).max(100)]).optional(),
  nonce: z
    .string()
    .refine((nonce) => Buffer.byteLength(nonce) <= 32)
    .optional(),
});

const requestChannelInfoSchema = z.object({
  guild_id: snowflakeSchema,
  fields: z.array(z.enum(['status', 'voice_start_time'])).min(1),
});

export function guildCreateJson(
  ctx: PlatformKernel,
  guilds: GuildService,
  voice: VoiceChannelState,
  guild: GuildRecord,
  session: GatewaySessionHandle,
) {
  const memberCount = ctx.store.guilds.countMembers(guild.id);
  const large = memberCount > LARGE_THRESHOLD;
  const self = guilds.member(guild.id, session.identity.userId);
  const voiceStates = voice.voiceStatesOf(guild.id);
  // Without GUILD_PRESENCES (or in a large guild) only the bot itself and the members in voice are listed (published).
  const inVoice = voiceStates
    .map((state) => state.user_id)
    .filter((id) => typeof id === 'string' && id !== self?.userId) as string[];
  const members: MemberRecord[] =
    (session.intents & Intent.GUILD_PRESENCES) !== 0 && !large
      ? ctx.store.botGuilds.listMembers(guild.id, null, LARGE_THRESHOLD)
      : [...(self ? [self] : []), ...inVoice.flatMap((id) => guilds.member(guild.id, id) ?? [])];
  return {
    ...guildJson(guild, guilds.roles(guild)),
    joined_at: new Date(self ? joinedAt(self) : ctx.now()).toISOString(),
    large,
    unavailable: false,
    member_count: memberCount,
    voice_states: voiceStates,
    members: members.map((member) => memberJson(ctx, member)),
    channels: ctx.store.guilds
      .listChannels(guild.id)
      .map((channel) => fullChannelJson(channel, guilds.settings(channel.id))),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** The bot gateway's guild part: READY `guilds`, GUILD_CREATE after READY, op 8 and op 43. */
export function guildGatewayHandlers(
  ctx: PlatformKernel,
  guilds: GuildService,
  voice: VoiceChannelState,
): GatewayHandlers {
  /** `${botUserId}:${guildId}` → when the last full list was asked for. */
  const fullListAt = new Map<string, number>();

  return {
    readyExtras: (identity) =>
      identity.kind === 'bot'
        ? {
            guilds: ctx.store.guilds.listForUser(identity.userId).map((guild) => ({ id: guild.id, unavailable: true })),
          }
        : {},
    identified: (session) => {
      if (session.identity.kind !== 'bot' || (session.intents & Intent.GUILDS) === 0) return;
      for (const guild of ctx.store.guilds.listForUser(session.identity.userId)) {
        session.dispatch('GUILD_CREATE', guildCreateJson(ctx, guilds, voice, guild, session));
      }
    },
    command: (command: GatewayCommand) => {
      if (command.op === OP_REQUEST_GUILD_MEMBERS) return requestGuildMembers(command);
      if (command.op === OP_REQUEST_CHANNEL_INFO) return requestChannelInfo(command);
      return false;
    },
  };

  function requestGuildMembers({ d, session }: GatewayCommand): boolean | 'invalid' {
    const parsed = requestMembersSchema.safeParse(d);
    if (!parsed.success) return 'invalid';
    const request = parsed.data;
    const { userId } = session.identity;
    const guild = ctx.store.guilds.get(request.guild_id);
    if (!guild || !guilds.member(guild.id, userId)) return 'invalid';
    const userIds = request.user_ids === undefined ? undefined : [request.user_ids].flat();
    const fullList = userIds === undefined && (request.query ?? '') === '' && request.limit === 0;
    // Published: the full list needs GUILD_MEMBERS, presences need GUILD_PRESENCES.
    if (fullList && (session.intents & Intent.GUILD_MEMBERS) === 0) return 'invalid';
    if (request.presences && (session.intents & Intent.GUILD_PRESENCES) === 0) return 'invalid';
    const nonce = request.nonce;

    if (fullList) {
      const key = `${userId}:${guild.id}`;
      const now = ctx.now();
      const last = fullListAt.get(key);
      if (last !== undefined && now - last < FULL_LIST_WINDOW_MS) {
        session.dispatch('RATE_LIMITED', {
          opcode: OP_REQUEST_GUILD_MEMBERS,
          retry_after: (FULL_LIST_WINDOW_MS - (now - last)) / 1000,
          meta: { guild_id: guild.id, ...(nonce !== undefined && { nonce }) },
        });
        return true;
      }
      fullListAt.set(key, now);
    }

    let members: MemberRecord[];
    const notFound: string[] = [];
    if (userIds !== undefined) {
      members = [];
      for (const id of new Set(userIds)) {
        const member = guilds.member(guild.id, id);
        if (member) members.push(member);
        else notFound.push(id);
      }
    } else if (fullList) {
      members = ctx.store.botGuilds.listMembers(guild.id, null, Number.MAX_SAFE_INTEGER);
    } else {
      // A query returns at most 100 members (limit 0 means the maximum).
      const limit = request.limit === 0 ? 100 : Math.min(request.limit, 100);
      members = ctx.store.botGuilds.searchMembers(guild.id, request.query ?? '', limit);
    }

    const chunkCount = Math.max(1, Math.ceil(members.length / CHUNK_SIZE));
    for (let index = 0; index < chunkCount; index++) {
      const slice = members.slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE);
      session.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guild.id,
        members: slice.map((member) => memberJson(ctx, member)),
        chunk_index: index,
        chunk_count: chunkCount,
        ...(index === 0 && notFound.length > 0 && { not_found: notFound }),
        ...(request.presences && { presences: [] }),
        ...(nonce !== undefined && { nonce }),
      });
    }
    return true;
  }

  function requestChannelInfo({ d, session }: GatewayCommand): boolean | 'invalid' {
    const parsed = requestChannelInfoSchema.safeParse(d);
    if (!parsed.success) return 'invalid';
    const guild = ctx.store.guilds.get(parsed.data.guild_id);
    if (!guild || !guilds.member(guild.id, session.identity.userId)) return 'invalid';
    const fields = new Set(parsed.data.fields);
    const channels = ctx.store.guilds
      .listChannels(guild.id)
      .filter((channel) => channel.type === GUILD_VOICE)
      .map((channel) => {
        const status = voice.status(channel.id);
        const start = voice.startTime(channel.id);
        return {
          id: channel.id,
          ...(fields.has('status') && status !== null && { status }),
          ...(fields.has('voice_start_time') && start !== null && { voice_start_time: start }),
        };
      });
    session.dispatch('CHANNEL_INFO', { guild_id: guild.id, channels });
    return true;
  }
}
