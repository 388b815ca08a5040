import type { SegmentTag, TagField } from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { normalizeTags } from '../service/tags';
import { tagLabel } from '../tags/tag-vocabulary';
import { tableExists } from './search-filters';

const LOCAL_FIELD: Record<string, TagField> = { shot_size: 'shotSize', camera_movement: 'cameraMovement' };

function serviceConfidence(rawJson: string, field: TagField, canonical: string): number | null {
  try {
    const t = normalizeTags(JSON.parse(rawJson));
    const v = t[field];
    return v && v.canonical === canonical && v.confidence !== undefined ? v.confidence : null;
  } catch {
    return null;
  }
}

/**
 * Both tables hold vocabulary ids (migration 0014 brought older rows onto them); the label shown
 * is the vocabulary's. Tags of each segment from both sources: the service's (per segment) and the local analysis's
 * (per shot, so shared by the shot's segments). Service tags first, then local by confidence.
 */
export function tagsForSegments(db: CatalogDb, segmentIds: readonly number[]): Map<number, SegmentTag[]> {
  const out = new Map<number, SegmentTag[]>();
  if (segmentIds.length === 0) return out;
  const ids = JSON.stringify(segmentIds);
  const push = (id: number, t: SegmentTag) => {
    const list = out.get(id) ?? [];
    list.push(t);
    out.set(id, list);
  };
  const service = db
    .prepare(
      `SELECT segment_id, raw_json, shot_size, camera_movement, shooting_angle FROM service_tags
       WHERE segment_id IN (SELECT value FROM json_each(?))`,
    )
    .all(ids) as { segment_id: number; raw_json: string; shot_size: string | null; camera_movement: string | null; shooting_angle: string | null }[];
  for (const r of service) {
    const cols: [TagField, string | null][] = [
      ['shotSize', r.shot_size],
      ['cameraMovement', r.camera_movement],
      ['shootingAngle', r.shooting_angle],
    ];
    for (const [field, value] of cols) {
      if (value === null || value.trim() === '') continue;
      push(r.segment_id, { field, value: tagLabel(field, value), canonical: value, source: 'service', confidence: serviceConfidence(r.raw_json, field, value) });
    }
  }
  if (tableExists(db, 'shot_local_tags')) {
    const local = db
      .prepare(
        `SELECT s.id AS segment_id, lt.category, lt.value, lt.confidence FROM segments s
         JOIN shot_local_tags lt ON lt.shot_id = s.shot_id
         WHERE s.id IN (SELECT value FROM json_each(?))
         ORDER BY s.id, lt.category, lt.confidence DESC`,
      )
      .all(ids) as { segment_id: number; category: string; value: string; confidence: number }[];
    for (const r of local) {
      const field = LOCAL_FIELD[r.category];
      if (!field) continue;
      push(r.segment_id, { field, value: tagLabel(field, r.value), canonical: r.value, source: 'local', confidence: r.confidence });
    }
  }
  return out;
}
