/**
 * Applied by migrateArea under `schema:application-profile`: the published fields of `PATCH /applications/@me`
 * (description, icon, tags, install settings, event webhook settings), one JSON document per application.
 */
export const APPLICATION_PROFILE_MIGRATIONS: readonly string[] = ['ALTER TABLE applications ADD COLUMN profile TEXT'];
