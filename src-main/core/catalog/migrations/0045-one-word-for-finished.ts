import type Database from 'better-sqlite3';
import type { Migration } from '../migration';

/** The CHECK 0001 put on clips.status, and what it becomes. */
const OLD_STATUS_CHECK = /CHECK\s*\(\s*status\s+IN\s*\(\s*'pending'\s*,\s*'probed'\s*,\s*'ready'\s*,\s*'error'\s*,\s*'unsupported'\s*\)\s*\)/;
const NEW_STATUS_CHECK = "CHECK (status IN ('pending', 'probed', 'done', 'error', 'unsupported'))";
const REBUILT = 'clips_0045';

/**
 * One word for finished: `done`, the word the Jobs view's clips, its filter and the imports already
 * used. A job said `succeeded`, a service task as stored `completed` (the service's own word, which
 * stays where its answers are parsed), a clip whose shots and thumbnails are made `ready`.
 *
 * clips.status carries a CHECK of its values, which SQLite cannot alter, so the table is rebuilt the
 * documented way (the runner turns foreign keys off: `rebuildsTables`): a new table from the stored
 * definition with the new word in its CHECK, every row copied under its id, the old table dropped,
 * the new one renamed, its indexes and triggers made again from their stored text. The definition
 * is read from the catalog, not written here, so the columns later migrations added stay as they
 * are; a definition without 0001's CHECK is not one this migration knows, and it stops.
 */
export const m0045OneWordForFinished: Migration = {
  version: 45,
  name: 'one word for finished: done',
  rebuildsTables: true,
  up(db) {
    rebuildClipsWithDone(db);
    db.exec(`
      UPDATE jobs SET state = 'done' WHERE state = 'succeeded';
      UPDATE service_tasks SET status = 'done' WHERE status = 'completed';
    `);
  },
};

function rebuildClipsWithDone(db: Database.Database): void {
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'clips'").get() as { sql: string } | undefined;
  if (!table) throw new Error('migration 45: the catalog has no clips table');
  if (!OLD_STATUS_CHECK.test(table.sql)) throw new Error('migration 45: clips.status has a CHECK this migration does not know');
  const definition = table.sql.replace(OLD_STATUS_CHECK, NEW_STATUS_CHECK).replace(/^CREATE TABLE\s+("clips"|clips)/i, `CREATE TABLE ${REBUILT}`);
  if (!definition.startsWith(`CREATE TABLE ${REBUILT}`)) throw new Error('migration 45: the clips definition does not start as expected');
  const companions = (db.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'clips' AND type IN ('index', 'trigger') AND sql IS NOT NULL").all() as { sql: string }[]).map((r) => r.sql);
  // Column names come from the catalog's own definition, never from outside.
  const columns = (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all('clips') as { name: string }[]).map((c) => `"${c.name}"`);
  const values = columns.map((c) => (c === '"status"' ? `CASE status WHEN 'ready' THEN 'done' ELSE status END` : c));
  const before = (db.prepare('SELECT COUNT(*) AS n FROM clips').get() as { n: number }).n;
  db.exec(definition);
  db.exec(`INSERT INTO ${REBUILT} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM clips`);
  const copied = (db.prepare(`SELECT COUNT(*) AS n FROM ${REBUILT}`).get() as { n: number }).n;
  if (copied !== before) throw new Error(`migration 45: copied ${copied} of ${before} clips`);
  db.exec('DROP TABLE clips');
  db.exec(`ALTER TABLE ${REBUILT} RENAME TO clips`);
  for (const sql of companions) db.exec(sql);
}
