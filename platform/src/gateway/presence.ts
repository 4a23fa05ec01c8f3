/**
 * Turns a client's presence (op 3, or Identify's `presence`) into the PRESENCE_UPDATE payload others receive
 * (PROTOCOL.md §20.8): invisible is shown as offline, bots keep only the activity fields
 * they may set, and the server stamps `created_at` and normalises timestamps to milliseconds (values below 10^11 are
 * seconds).
 */
import type { Activity, Presence } from './schemas.js';
import type { GatewayIdentity } from './types.js';

const BOT_ACTIVITY_FIELDS = ['name', 'state', 'type', 'url'] as const;
const STREAM_URL = /^https:\/\/(www\.)?(twitch\.tv|youtube\.com)\//;

function toMs(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  return value < 1e11 ? value * 1000 : value;
}

function activityOut(activity: Activity, identity: GatewayIdentity, now: number): Record<string, unknown> {
  const out: Record<string, unknown> =
    identity.kind === 'bot'
      ? Object.fromEntries(BOT_ACTIVITY_FIELDS.filter((k) => activity[k] != null).map((k) => [k, activity[k]]))
      : { ...activity };
  // Everyone in the audience gets this payload, so secrets (join, spectate, match) never go out with it.
  delete out.secrets;
  // Only streaming activities carry a URL, and only to the two supported sites.
  if (activity.type !== 1 || typeof activity.url !== 'string' || !STREAM_URL.test(activity.url)) delete out.url;
  if (identity.kind === 'user' && activity.timestamps) {
    const { start, end } = activity.timestamps;
    out.timestamps = {
      ...activity.timestamps,
      ...(start !== undefined && { start: toMs(start) }),
      ...(end !== undefined && { end: toMs(end) }),
    };
  }
  out.created_at = now;
  return out;
}

export function presenceUpdate(identity: GatewayIdentity, presence: Presence, now: number): Record<string, unknown> {
  const status = presence.status === 'invisible' ? 'offline' : presence.status;
  const visible = status !== 'offline';
  return {
    user: { id: identity.userId },
    status,
    activities: visible ? presence.activities.map((a) => activityOut(a, identity, now)) : [],
    client_status: visible ? { desktop: status } : {},
    since: presence.since,
    afk: presence.afk,
  };
}
