/** Tables of activities (PROTOCOL.md §18), applied by migrateArea under `schema:activities`. */
export const ACTIVITY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE activity_instances (
    instance_id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    location_id TEXT NOT NULL,
    record TEXT NOT NULL,
    UNIQUE (application_id, location_id)
  );

  CREATE TABLE activity_url_mappings (
    application_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    prefix TEXT NOT NULL,
    target TEXT NOT NULL,
    PRIMARY KEY (application_id, position)
  );
  `,
];
