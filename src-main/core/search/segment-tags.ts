import type { SegmentTag, TagField } from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { tagLabel } from '../tags/tag-vocabulary';
import { PEOPLE_LABELS, peopleFor, resolveTag, TAG_COLUMNS, type SourcedTag } from './tag-resolution';

const FIELDS: readonly TagField[] = ['shotSize', 'cameraMovement', 'shootingAngle'];

/**
 * The tags a card shows per segment: for each field the one tag decided between the service's
 * (per segment) and the local analysis's (per shot), by the rule filters and facets use
 * (tag-resolution.ts), with the losing source kept as `other`; and the people in the shot.
 */
export function tagsForSegments(db: CatalogDb, segmentIds: readonly number[]): Map<number, SegmentTag[]> {
  const out = new Map<number, SegmentTag[]>();
  if (segmentIds.length === 0) return out;
  const ids = JSON.stringify(segmentIds);
  const service = new Map<number, Record<string, unknown>>();
  for (const r of db.prepare(`SELECT * FROM service_tags WHERE segment_id IN (SELECT value FROM json_each(?))`).all(ids) as Record<string, unknown>[]) {
    service.set(r.segment_id as number, r);
  }
  const local = new Map<number, Map<string, SourcedTag>>();
  const people = new Map<number, number | null>();
  const rows = db
    .prepare(
      `SELECT s.id AS segment_id, lt.category, lt.value, lt.confidence, sa.max_faces FROM segments s
       LEFT JOIN shot_local_tags lt ON lt.shot_id = s.shot_id
       LEFT JOIN shot_analysis sa ON sa.shot_id = s.shot_id
       WHERE s.id IN (SELECT value FROM json_each(?))
       ORDER BY s.id, lt.category, lt.confidence DESC`,
    )
    .all(ids) as { segment_id: number; category: string | null; value: string | null; confidence: number | null; max_faces: number | null }[];
  for (const r of rows) {
    people.set(r.segment_id, r.max_faces);
    if (r.category === null || r.value === null) continue;
    const m = local.get(r.segment_id) ?? new Map<string, SourcedTag>();
    if (!m.has(r.category)) m.set(r.category, { value: r.value, confidence: r.confidence });
    local.set(r.segment_id, m);
  }
  for (const id of segmentIds) {
    const tags: SegmentTag[] = [];
    const st = service.get(id);
    for (const field of FIELDS) {
      const c = TAG_COLUMNS[field];
      const sv = st?.[c.service] as string | null | undefined;
      const s = sv ? { value: sv, confidence: (st?.[c.confidence] as number | null) ?? null } : null;
      const l = c.local ? (local.get(id)?.get(c.local) ?? null) : null;
      const won = resolveTag(s, l);
      if (!won) continue;
      const lost = s && l && s.value !== l.value ? (won.source === 'service' ? { ...l, source: 'local' as const } : { ...s, source: 'service' as const }) : null;
      tags.push({
        field,
        value: tagLabel(field, won.value),
        canonical: won.value,
        source: won.source,
        confidence: won.confidence,
        other: lost ? { canonical: lost.value, value: tagLabel(field, lost.value), source: lost.source, confidence: lost.confidence } : null,
      });
    }
    const p = peopleFor(people.get(id) ?? null);
    if (p) tags.push({ field: 'people', value: PEOPLE_LABELS[p], canonical: p, source: 'local', confidence: null, other: null });
    out.set(id, tags);
  }
  return out;
}
