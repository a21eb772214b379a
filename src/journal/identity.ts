/**
 * How a SQLite file says "I am a Halyard journal": the header's application_id and a meta row.
 * Both are checked before anything is written, so a foreign database is never touched.
 */

/** `PRAGMA application_id`: the ASCII bytes "HLYD" as a 32-bit integer (0x484C5944). */
export const APPLICATION_ID = 0x484c5944;

/** `meta.magic`: the second key, in case an unrelated program ever picks the same application_id. */
export const MAGIC = 'halyard-journal';

/** The 16 bytes every SQLite 3 database file starts with. */
export const SQLITE_HEADER = 'SQLite format 3\u0000';

export const META_TABLE_SQL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT;
`;
