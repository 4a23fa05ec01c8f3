/**
 * Shapes of client payloads: main-gateway op 4 and the voice gateway's ops (PROTOCOL.md §13). Objects are loose:
 * clients send extra fields (e.g. `video`, `streams`) that are ignored.
 */
import { z } from 'zod';
import { SNOWFLAKE_PATTERN } from '../ids/snowflake.js';

const snowflake = z.string().regex(SNOWFLAKE_PATTERN);
/** JSON numbers above 2^53 lose precision, so ids are strings; small test ids may come as numbers. */
const id = z.union([snowflake, z.int().nonnegative()]).transform(String);

/** Main-gateway op 4. `lobby_id` (ours) names the call to leave when `channel_id` is null. */
export const voiceStateUpdateSchema = z.looseObject({
  guild_id: snowflake.nullish(),
  channel_id: snowflake.nullable(),
  self_mute: z.boolean(),
  self_deaf: z.boolean(),
  self_video: z.boolean().optional(),
  lobby_id: snowflake.optional(),
});
export type VoiceStateUpdate = z.infer<typeof voiceStateUpdateSchema>;

export const voiceEnvelopeSchema = z.looseObject({ op: z.int(), d: z.unknown().optional(), seq: z.int().optional() });

export const identifySchema = z.looseObject({
  server_id: id,
  user_id: id,
  session_id: z.string().min(1).max(128),
  token: z.string().min(1).max(256),
  /** DAVE: 0 or absent = no support. Accepted and recorded; this server negotiates version 0 (no DAVE). */
  max_dave_protocol_version: z.int().min(0).max(255).optional(),
});

export const resumeSchema = z.looseObject({
  server_id: id,
  session_id: z.string().min(1).max(128),
  token: z.string().min(1).max(256),
  seq_ack: z.int().min(-1).optional(),
});

/** v8 `{t, seq_ack}`; before v8 a bare integer nonce. */
export const heartbeatV8Schema = z.looseObject({ t: z.number(), seq_ack: z.int().min(-1).optional() });
export const heartbeatLegacySchema = z.number();

export const selectProtocolSchema = z.looseObject({
  protocol: z.string().max(32),
  data: z.looseObject({
    address: z.string().max(64),
    port: z.int().min(0).max(65535),
    mode: z.string().max(64),
  }),
});

export const speakingSchema = z.looseObject({
  /** Bitmask: microphone 1, soundshare 2, priority 4. */
  speaking: z.union([z.int().min(0).max(7), z.boolean().transform((b) => (b ? 1 : 0))]),
  delay: z.int().min(0).optional(),
  ssrc: z.int().min(0).max(0xffffffff),
});
