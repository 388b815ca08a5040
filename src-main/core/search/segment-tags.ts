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
  for (const id of segmentIds) out.set(id, resolvedTags(service.get(id), local.get(id), people.get(id) ?? null));
  return out;
}

/** One tag per field from the two sources (rule in tag-resolution.ts), the loser kept as `other`, then people. */
function resolvedTags(st: Record<string, unknown> | undefined, localTags: Map<string, SourcedTag> | undefined, maxFaces: number | null): SegmentTag[] {
  const tags: SegmentTag[] = [];
  for (const field of FIELDS) {
    const c = TAG_COLUMNS[field];
    const sv = st?.[c.service] as string | null | undefined;
    const s = sv ? { value: sv, confidence: (st?.[c.confidence] as number | null) ?? null } : null;
    const l = c.local ? (localTags?.get(c.local) ?? null) : null;
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
  const p = peopleFor(maxFaces);
  if (p) tags.push({ field: 'people', value: PEOPLE_LABELS[p], canonical: p, source: 'local', confidence: null, other: null });
  return tags;
}

export interface TagSpan {
  segmentId: number | null;
  shotId: number;
  startS: number;
  endS: number;
  tags: SegmentTag[];
}

/**
 * What the viewer's overlay follows along a clip: its indexed segments with their resolved tags,
 * and, for shots not (yet) sent to the service, the shot with its local tags alone. In time order.
 */
export function clipTagSpans(db: CatalogDb, clipId: number): TagSpan[] {
  const profile = (db.prepare('SELECT indexed_profile FROM clips WHERE id = ?').get(clipId) as { indexed_profile: string | null } | undefined)?.indexed_profile;
  const segs = db
    .prepare(
      `SELECT id, shot_id, start_s, end_s FROM segments WHERE clip_id = ? AND (? IS NULL OR profile_id = ?)
       AND id IN (SELECT segment_id FROM service_tags UNION SELECT segment_id FROM embeddings) ORDER BY start_s, id`,
    )
    .all(clipId, profile ?? null, profile ?? null) as { id: number; shot_id: number; start_s: number; end_s: number }[];
  const bySeg = tagsForSegments(db, segs.map((s) => s.id));
  const spans: TagSpan[] = segs.map((s) => ({ segmentId: s.id, shotId: s.shot_id, startS: s.start_s, endS: s.end_s, tags: bySeg.get(s.id) ?? [] }));
  const covered = new Set(segs.map((s) => s.shot_id));
  const shots = db.prepare('SELECT id, start_s, end_s FROM shots WHERE clip_id = ? ORDER BY idx').all(clipId) as { id: number; start_s: number; end_s: number }[];
  for (const shot of shots) {
    if (covered.has(shot.id)) continue;
    const rows = db
      .prepare(
        `SELECT lt.category, lt.value, lt.confidence, sa.max_faces FROM shots sh
         LEFT JOIN shot_local_tags lt ON lt.shot_id = sh.id LEFT JOIN shot_analysis sa ON sa.shot_id = sh.id
         WHERE sh.id = ? ORDER BY lt.category, lt.confidence DESC`,
      )
      .all(shot.id) as { category: string | null; value: string | null; confidence: number | null; max_faces: number | null }[];
    const m = new Map<string, SourcedTag>();
    for (const r of rows) if (r.category !== null && r.value !== null && !m.has(r.category)) m.set(r.category, { value: r.value, confidence: r.confidence });
    spans.push({ segmentId: null, shotId: shot.id, startS: shot.start_s, endS: shot.end_s, tags: resolvedTags(undefined, m, rows[0]?.max_faces ?? null) });
  }
  return spans.sort((a, b) => a.startS - b.startS);
}
