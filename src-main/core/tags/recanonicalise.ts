import type Database from 'better-sqlite3';
import type { TagField } from '../../../src-shared/contract/search';
import { canonicalTag } from './tag-vocabulary';

const SERVICE_COLUMNS: ReadonlyArray<readonly [string, TagField]> = [
  ['shot_size', 'shotSize'],
  ['camera_movement', 'cameraMovement'],
  ['shooting_angle', 'shootingAngle'],
];
const LOCAL_CATEGORIES: ReadonlyArray<readonly [string, TagField]> = [
  ['shot_size', 'shotSize'],
  ['camera_movement', 'cameraMovement'],
];

/**
 * Rewrites every stored tag value onto the current vocabulary's ids: the service's columns of
 * service_tags (raw_json keeps what the service sent) and the local tags. Distinct values are few,
 * so this is one UPDATE per distinct spelling. Run by migration 0014; a later change of the
 * vocabulary adds a migration that runs it again.
 */
export function recanonicaliseStoredTags(db: Database.Database): { rewritten: number } {
  let rewritten = 0;
  const hasTable = (name: string) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
  if (hasTable('service_tags')) {
    for (const [col, field] of SERVICE_COLUMNS) {
      const values = db.prepare(`SELECT DISTINCT ${col} FROM service_tags WHERE ${col} IS NOT NULL`).pluck().all() as string[];
      const upd = db.prepare(`UPDATE service_tags SET ${col} = ? WHERE ${col} = ?`);
      for (const v of values) {
        const id = canonicalTag(field, v);
        if (id !== v) rewritten += upd.run(id === '' ? null : id, v).changes;
      }
    }
  }
  if (hasTable('shot_local_tags')) {
    for (const [category, field] of LOCAL_CATEGORIES) {
      const values = db.prepare('SELECT DISTINCT value FROM shot_local_tags WHERE category = ?').pluck().all(category) as string[];
      // A shot holds one value per category; OR REPLACE only guards the primary key against two
      // old spellings of one id on the same shot.
      const upd = db.prepare('UPDATE OR REPLACE shot_local_tags SET value = ? WHERE category = ? AND value = ?');
      for (const v of values) {
        const id = canonicalTag(field, v);
        if (id !== v && id !== '') rewritten += upd.run(id, category, v).changes;
      }
    }
  }
  return { rewritten };
}
