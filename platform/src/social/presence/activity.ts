/**
 * The rich-presence activity a user session may set (PROTOCOL.md §10.2), validated with field
 * errors, and the server's normalisation: default name, `application_id`, `created_at`, millisecond timestamps.
 */
import { z } from 'zod';
import { snowflakeSchema } from '../../http/validation.js';
import type { ApplicationRecord } from '../../store/types.js';

const text = (min: number, max: number) => z.string().min(min).max(max);

export const activitySchema = z.object({
  // Playing when left out, as the published service defaults it: its own RPC example and the classic RPC clients
  // send no type.
  type: z.literal([0, 2, 3, 5]).default(0),
  name: text(1, 128).optional(),
  state: text(2, 128).nullish(),
  details: text(2, 128).nullish(),
  state_url: text(2, 256).nullish(),
  details_url: text(2, 256).nullish(),
  timestamps: z.object({ start: z.int().nonnegative().optional(), end: z.int().nonnegative().optional() }).optional(),
  assets: z
    .object({
      large_image: text(1, 300).optional(),
      large_text: text(2, 128).optional(),
      large_url: text(1, 256).optional(),
      small_image: text(1, 300).optional(),
      small_text: text(2, 128).optional(),
      small_url: text(1, 256).optional(),
      invite_cover_image: text(1, 300).optional(),
    })
    .optional(),
  party: z
    .object({
      id: text(2, 128).optional(),
      size: z.tuple([z.int().min(1), z.int().min(0)]).optional(),
      privacy: z.literal([0, 1]).optional(),
    })
    .optional(),
  // All three published secrets are kept (only `join` is used here); like `join`, none is ever shown to others.
  secrets: z
    .object({ join: text(2, 128).optional(), spectate: text(2, 128).optional(), match: text(2, 128).optional() })
    .optional(),
  buttons: z
    .array(z.object({ label: text(1, 32), url: text(1, 512) }))
    .max(2)
    .optional(),
  status_display_type: z.int().min(0).max(2).optional(),
  supported_platforms: z.int().nonnegative().optional(),
  parent_application_id: snowflakeSchema.optional(),
  instance: z.boolean().optional(),
  flags: z.int().nonnegative().optional(),
});
export type ActivityInput = z.infer<typeof activitySchema>;

/** A stored activity: what others receive in PRESENCE_UPDATE. */
export type Activity = Record<string, unknown> & {
  application_id: string;
  party?: { id?: string; size?: [number, number]; privacy?: 0 | 1 };
  secrets?: { join?: string; spectate?: string; match?: string };
  assets?: { invite_cover_image?: string };
};

/** Values below 10^11 are seconds (PROTOCOL.md §10.2; sources disagree on the unit, so both are taken). */
const toMs = (value: number): number => (value < 1e11 ? value * 1000 : value);

export function normaliseActivity(
  input: ActivityInput,
  app: Pick<ApplicationRecord, 'id' | 'name'>,
  now: number,
): Activity {
  const out: Activity = { ...input, name: input.name ?? app.name, application_id: app.id, created_at: now };
  if (input.timestamps) {
    const { start, end } = input.timestamps;
    out.timestamps = {
      ...(start !== undefined && { start: toMs(start) }),
      ...(end !== undefined && { end: toMs(end) }),
    };
  }
  return out;
}

/**
 * The activity as anyone but its owner sees it: without `secrets`. A join secret reaches another user only through
 * an invite they accept (§10.3), so whoever merely sees the presence cannot join the party uninvited.
 */
export function publicActivity(activity: Activity): Activity {
  const { secrets: _secrets, ...visible } = activity;
  return visible as Activity;
}

/** Joinable = a party id, a size with room left, and a join secret. */
export function isJoinable(
  activity: Activity | undefined,
): activity is Activity & { party: { id: string }; secrets: { join: string } } {
  const size = activity?.party?.size;
  return Boolean(activity?.party?.id && activity.secrets?.join && size && size[0] < size[1]);
}
