import type { Migration } from '../migration';
import { frozenTagConfidences } from './frozen-tag-confidences';

/**
 * What deciding between the service's and the local tag needs (search/tag-resolution.ts):
 * - the service's confidence per field as columns (it was only inside raw_json), backfilled with
 *   the service answer parser as it was then (frozen-tag-confidences.ts);
 * - "no person" leaves the local shot sizes: whether people are in a shot is the people facet's
 *   (shot_analysis.max_faces), not a framing.
 */
export const m0015TagResolution: Migration = {
  version: 15,
  name: 'service tag confidences as columns; people out of shot sizes',
  up(db) {
    db.exec(`
      ALTER TABLE service_tags ADD COLUMN shot_size_conf REAL;
      ALTER TABLE service_tags ADD COLUMN camera_movement_conf REAL;
      ALTER TABLE service_tags ADD COLUMN shooting_angle_conf REAL;
      DELETE FROM shot_local_tags WHERE category = 'shot_size' AND value = 'no_person';
    `);
    const rows = db.prepare('SELECT segment_id, raw_json FROM service_tags').all() as { segment_id: number; raw_json: string }[];
    const upd = db.prepare('UPDATE service_tags SET shot_size_conf = ?, camera_movement_conf = ?, shooting_angle_conf = ? WHERE segment_id = ?');
    for (const r of rows) {
      let c: ReturnType<typeof frozenTagConfidences>;
      try {
        c = frozenTagConfidences(JSON.parse(r.raw_json));
      } catch {
        continue;
      }
      upd.run(c.shotSize ?? null, c.cameraMovement ?? null, c.shootingAngle ?? null, r.segment_id);
    }
  },
};
