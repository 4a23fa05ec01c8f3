import type { SqlDatabase } from '../sql-database.js';
import type { ActivityInstanceRecord, ActivityRepository } from '../activity-types.js';
import { json, str, type Row } from './rows.js';

export function sqliteActivities(db: SqlDatabase): ActivityRepository {
  const insertInstance = db.prepare(
    `INSERT INTO activity_instances (instance_id, application_id, location_id, record)
     VALUES (@instanceId, @applicationId, @locationId, @record)`,
  );
  const updateInstance = db.prepare('UPDATE activity_instances SET record = @record WHERE instance_id = @instanceId');
  const deleteInstance = db.prepare('DELETE FROM activity_instances WHERE instance_id = ?');
  const getInstance = db.prepare('SELECT record FROM activity_instances WHERE instance_id = ?');
  const findInstanceAt = db.prepare(
    'SELECT record FROM activity_instances WHERE application_id = ? AND location_id = ?',
  );

  const listMappings = db.prepare(
    'SELECT prefix, target FROM activity_url_mappings WHERE application_id = ? ORDER BY position',
  );
  const deleteMappings = db.prepare('DELETE FROM activity_url_mappings WHERE application_id = ?');
  const insertMapping = db.prepare(
    'INSERT INTO activity_url_mappings (application_id, position, prefix, target) VALUES (?, ?, ?, ?)',
  );

  const instance = (row: unknown): ActivityInstanceRecord | undefined =>
    row ? json<ActivityInstanceRecord>((row as Row).record) : undefined;

  return {
    insertInstance: (record) =>
      void insertInstance.run({
        instanceId: record.instanceId,
        applicationId: record.applicationId,
        locationId: record.locationId,
        record: JSON.stringify(record),
      }),
    updateInstance: (record) =>
      void updateInstance.run({ instanceId: record.instanceId, record: JSON.stringify(record) }),
    deleteInstance: (instanceId) => void deleteInstance.run(instanceId),
    getInstance: (instanceId) => instance(getInstance.get(instanceId)),
    findInstanceAt: (applicationId, locationId) => instance(findInstanceAt.get(applicationId, locationId)),

    urlMappings: (applicationId) =>
      (listMappings.all(applicationId) as Row[]).map((row) => ({ prefix: str(row.prefix), target: str(row.target) })),
    setUrlMappings: (applicationId, mappings) =>
      db.transaction(() => {
        deleteMappings.run(applicationId);
        mappings.forEach((mapping, position) =>
          insertMapping.run(applicationId, position, mapping.prefix, mapping.target),
        );
      }),
  };
}
