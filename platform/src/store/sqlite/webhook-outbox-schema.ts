import type { Migration } from './migrations.js';

/** Applied by migrateArea under `schema:webhook-targets`: per-entry target URLs (lobby webhook overrides). */
export const OUTBOX_TARGET_MIGRATIONS: readonly string[] = ['ALTER TABLE webhook_outbox ADD COLUMN target_url TEXT'];

/**
 * Applied under `schema:webhook-event-ids`: events queued before envelopes carried `event.id` get their row id, so
 * the ones still pending go out with an id like every later event.
 */
export const OUTBOX_EVENT_ID_MIGRATIONS: readonly Migration[] = [
  {
    sqlite:
      "UPDATE webhook_outbox SET body = json_set(body, '$.event.id', id) " +
      "WHERE json_extract(body, '$.event.id') IS NULL",
    postgres:
      "UPDATE webhook_outbox SET body = jsonb_set(body::jsonb, '{event,id}', to_jsonb(id))::text " +
      "WHERE body::jsonb #> '{event,id}' IS NULL",
  },
];
