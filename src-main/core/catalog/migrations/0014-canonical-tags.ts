import type { Migration } from '../migration';
import { frozenCanonicalTag, type FrozenTagField } from './frozen-tag-vocabulary';

const SERVICE_COLUMNS: ReadonlyArray<readonly [string, FrozenTagField]> = [
  ['shot_size', 'shotSize'],
  ['camera_movement', 'cameraMovement'],
  ['shooting_angle', 'shootingAngle'],
];
const LOCAL_CATEGORIES: ReadonlyArray<readonly [string, FrozenTagField]> = [
  ['shot_size', 'shotSize'],
  ['camera_movement', 'cameraMovement'],
];

/**
 * Tag values stored as their source spelled them ("CU", "Extreme Wide Shot", "hand-held", the local
 * "close-up") become ids of the one vocabulary (frozen-tag-vocabulary.ts: the vocabulary as it was
 * then), so an older library's facets merge and its filters find every shot. service_tags.raw_json
 * keeps the service's answer. Distinct values are few: one UPDATE per distinct spelling.
 */
export const m0014CanonicalTags: Migration = {
  version: 14,
  name: 'tag values onto the canonical vocabulary',
  up(db) {
    const hasTable = (name: string) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
    if (hasTable('service_tags')) {
      for (const [col, field] of SERVICE_COLUMNS) {
        const values = db.prepare(`SELECT DISTINCT ${col} FROM service_tags WHERE ${col} IS NOT NULL`).pluck().all() as string[];
        const upd = db.prepare(`UPDATE service_tags SET ${col} = ? WHERE ${col} = ?`);
        for (const v of values) {
          const id = frozenCanonicalTag(field, v);
          if (id !== v) upd.run(id === '' ? null : id, v);
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
          const id = frozenCanonicalTag(field, v);
          if (id !== v && id !== '') upd.run(id, category, v);
        }
      }
    }
  },
};
