import type { FacetField, PEOPLE_VALUES, TagField } from '../../../../src-shared/contract/search';
import type { CatalogDb } from '../../catalog/open-catalog';

/**
 * One tag per field and segment, decided between the service's tag (per segment) and the local
 * analysis's (per shot, shared by its segments). The rule, the same here (resolveTag) and in SQL
 * (tagValuesSql), side by side so that one cannot change without the other:
 *   1. only one source has a value: that value;
 *   2. both agree: that value (source "both");
 *   3. they disagree: the more confident one; a service tag without a confidence counts as 0.5;
 *      a tie goes to the service (it sees the pictures at a higher resolution than the local model).
 * Filters match and facets count this resolved value, so the tag a filter matched is the tag the
 * card shows, and a segment is counted once per field whatever its sources say.
 */
export type ResolvedSource = 'service' | 'local' | 'both';

export interface SourcedTag {
  value: string;
  confidence: number | null;
}

export interface ResolvedTag {
  value: string;
  source: ResolvedSource;
  confidence: number | null;
}

export const UNKNOWN_SERVICE_CONFIDENCE = 0.5;

export function resolveTag(service: SourcedTag | null, local: SourcedTag | null): ResolvedTag | null {
  if (!service) return local ? { ...local, source: 'local' } : null;
  if (!local) return { ...service, source: 'service' };
  if (service.value === local.value) return { value: service.value, source: 'both', confidence: Math.max(service.confidence ?? 0, local.confidence ?? 0) };
  return (service.confidence ?? UNKNOWN_SERVICE_CONFIDENCE) >= (local.confidence ?? 0) ? { ...service, source: 'service' } : { ...local, source: 'local' };
}

/** Columns of service_tags and category of shot_local_tags per field (no local shooting angle exists). */
export const TAG_COLUMNS: Record<TagField, { service: string; confidence: string; local: string | null }> = {
  shotSize: { service: 'shot_size', confidence: 'shot_size_conf', local: 'shot_size' },
  cameraMovement: { service: 'camera_movement', confidence: 'camera_movement_conf', local: 'camera_movement' },
  shootingAngle: { service: 'shooting_angle', confidence: 'shooting_angle_conf', local: null },
};

export type TagSourceChoice = 'either' | 'service' | 'local';

/**
 * A query of (segment_id, value) rows: the resolved value of `field` per segment ('either'), or
 * one source's value. Segments without a value have no row.
 */
export function tagValuesSql(field: TagField, source: TagSourceChoice = 'either'): string {
  const c = TAG_COLUMNS[field];
  if (source === 'service') return `SELECT segment_id, ${c.service} AS value FROM service_tags WHERE ${c.service} IS NOT NULL`;
  if (c.local === null) {
    return source === 'local' ? 'SELECT NULL AS segment_id, NULL AS value WHERE 0' : `SELECT segment_id, ${c.service} AS value FROM service_tags WHERE ${c.service} IS NOT NULL`;
  }
  const local = `SELECT s.id AS segment_id, lt.value, lt.confidence FROM segments s JOIN shot_local_tags lt ON lt.shot_id = s.shot_id AND lt.category = '${c.local}'`;
  if (source === 'local') return `SELECT segment_id, value FROM (${local})`;
  // Rows from both sides: a full outer join written as two left joins (service first, then local-only).
  return `
    SELECT st.segment_id,
      CASE WHEN lo.value IS NULL OR lo.value = st.${c.service} OR COALESCE(st.${c.confidence}, ${UNKNOWN_SERVICE_CONFIDENCE}) >= lo.confidence
           THEN st.${c.service} ELSE lo.value END AS value
    FROM service_tags st LEFT JOIN (${local}) lo ON lo.segment_id = st.segment_id
    WHERE st.${c.service} IS NOT NULL
    UNION ALL
    SELECT lo.segment_id, lo.value FROM (${local}) lo
    WHERE NOT EXISTS (SELECT 1 FROM service_tags st WHERE st.segment_id = lo.segment_id AND st.${c.service} IS NOT NULL)`;
}

/** People in a shot, from the local face detection's largest count in one sampled frame. */
export type PeopleValue = (typeof PEOPLE_VALUES)[number];
export const PEOPLE_LABELS: Record<PeopleValue, string> = { no_people: 'No people', one_person: 'One person', two_people: 'Two people', group: 'Group' };

export function peopleFor(maxFaces: number | null): PeopleValue | null {
  if (maxFaces === null) return null;
  return maxFaces <= 0 ? 'no_people' : maxFaces === 1 ? 'one_person' : maxFaces === 2 ? 'two_people' : 'group';
}

/** (segment_id, value) rows of the people facet, by the same thresholds as peopleFor. */
const PEOPLE_SQL = `
  SELECT s.id AS segment_id,
    CASE WHEN sa.max_faces <= 0 THEN 'no_people' WHEN sa.max_faces = 1 THEN 'one_person' WHEN sa.max_faces = 2 THEN 'two_people' ELSE 'group' END AS value
  FROM segments s JOIN shot_analysis sa ON sa.shot_id = s.shot_id`;

/** (segment_id, value) rows of a facet field as filters read it and facets count it ('people' has one source). */
export function facetValuesSql(field: FacetField, source: TagSourceChoice): string {
  return field === 'people' ? PEOPLE_SQL : tagValuesSql(field, source);
}

/** What each source says of a segment (or a shot not sent to the service): the inputs of resolveTag, and the face count. */
export interface TagSources {
  service: Partial<Record<TagField, SourcedTag>>;
  local: Partial<Record<TagField, SourcedTag>>;
  maxFaces: number | null;
}

/** A span of a clip the viewer's overlay follows: an indexed segment, or a shot the service has not seen. */
export interface SpanSources {
  segmentId: number | null;
  shotId: number;
  startS: number;
  endS: number;
  sources: TagSources;
}

interface ServiceTagRow {
  segment_id: number;
  shot_size: string | null;
  shot_size_conf: number | null;
  camera_movement: string | null;
  camera_movement_conf: number | null;
  shooting_angle: string | null;
  shooting_angle_conf: number | null;
}

interface LocalTagRow {
  category: string | null;
  value: string | null;
  confidence: number | null;
  max_faces: number | null;
}

const TAG_FIELDS = Object.keys(TAG_COLUMNS) as TagField[];
const LOCAL_FIELD = new Map(TAG_FIELDS.flatMap((f) => (TAG_COLUMNS[f].local ? [[TAG_COLUMNS[f].local, f] as const] : [])));

function serviceSources(r: ServiceTagRow | undefined): TagSources['service'] {
  const out: TagSources['service'] = {};
  if (!r) return out;
  const row = r as unknown as Record<string, string | number | null>;
  for (const f of TAG_FIELDS) {
    const value = row[TAG_COLUMNS[f].service];
    if (typeof value === 'string' && value !== '') out[f] = { value, confidence: (row[TAG_COLUMNS[f].confidence] as number | null) ?? null };
  }
  return out;
}

/** Local rows come most confident first per category: the first one of each is the shot's tag. */
function addLocal(into: TagSources, r: LocalTagRow): void {
  into.maxFaces = r.max_faces;
  const field = r.category === null ? undefined : LOCAL_FIELD.get(r.category);
  if (field && r.value !== null && !into.local[field]) into.local[field] = { value: r.value, confidence: r.confidence };
}

/**
 * The reads of the tags a card and the viewer show: the service's per segment (the pipeline's
 * service_tags), the local analysis's per shot (the library's shot_local_tags and face counts), as
 * the inputs of resolveTag. A read model: it writes nothing.
 */
export function createTagResolutionStore(db: CatalogDb) {
  const q = {
    service: db.prepare(
      `SELECT segment_id, shot_size, shot_size_conf, camera_movement, camera_movement_conf, shooting_angle, shooting_angle_conf
       FROM service_tags WHERE segment_id IN (SELECT value FROM json_each(?))`,
    ),
    localOfSegments: db.prepare(
      `SELECT s.id AS segment_id, lt.category, lt.value, lt.confidence, sa.max_faces FROM segments s
       LEFT JOIN shot_local_tags lt ON lt.shot_id = s.shot_id
       LEFT JOIN shot_analysis sa ON sa.shot_id = s.shot_id
       WHERE s.id IN (SELECT value FROM json_each(?))
       ORDER BY s.id, lt.category, lt.confidence DESC`,
    ),
    // The clip's indexed segments of its current profile (all of them before one was recorded)
    // that the service tagged or embedded.
    indexedSegmentsOfClip: db.prepare(
      `SELECT s.id, s.shot_id, s.start_s, s.end_s FROM segments s JOIN clips c ON c.id = s.clip_id
       WHERE s.clip_id = ? AND (c.indexed_profile IS NULL OR s.profile_id = c.indexed_profile)
         AND (EXISTS (SELECT 1 FROM service_tags t WHERE t.segment_id = s.id) OR EXISTS (SELECT 1 FROM embeddings e WHERE e.segment_id = s.id))
       ORDER BY s.start_s, s.id`,
    ),
    localOfClipShots: db.prepare(
      `SELECT sh.id AS shot_id, sh.start_s, sh.end_s, lt.category, lt.value, lt.confidence, sa.max_faces FROM shots sh
       LEFT JOIN shot_local_tags lt ON lt.shot_id = sh.id LEFT JOIN shot_analysis sa ON sa.shot_id = sh.id
       WHERE sh.clip_id = ? ORDER BY sh.idx, lt.category, lt.confidence DESC`,
    ),
  };

  const store = {
    /** What each source says of these segments; ids no longer in the catalog say nothing. */
    sourcesOfSegments(segmentIds: readonly number[]): Map<number, TagSources> {
      const out = new Map<number, TagSources>();
      if (segmentIds.length === 0) return out;
      const ids = JSON.stringify(segmentIds);
      const service = new Map((q.service.all(ids) as ServiceTagRow[]).map((r) => [r.segment_id, r]));
      for (const id of segmentIds) out.set(id, { service: serviceSources(service.get(id)), local: {}, maxFaces: null });
      for (const r of q.localOfSegments.all(ids) as (LocalTagRow & { segment_id: number })[]) addLocal(out.get(r.segment_id)!, r);
      return out;
    },

    /**
     * What the viewer's overlay follows along a clip: its indexed segments with what each source
     * says, and the shots no indexed segment covers (not yet sent to the service) with their local
     * tags alone. In time order.
     */
    spansOfClip(clipId: number): SpanSources[] {
      const segs = q.indexedSegmentsOfClip.all(clipId) as { id: number; shot_id: number; start_s: number; end_s: number }[];
      const bySeg = store.sourcesOfSegments(segs.map((s) => s.id));
      const spans: SpanSources[] = segs.map((s) => ({ segmentId: s.id, shotId: s.shot_id, startS: s.start_s, endS: s.end_s, sources: bySeg.get(s.id)! }));
      const covered = new Set(segs.map((s) => s.shot_id));
      const shots = new Map<number, SpanSources>();
      for (const r of q.localOfClipShots.all(clipId) as (LocalTagRow & { shot_id: number; start_s: number; end_s: number })[]) {
        if (covered.has(r.shot_id)) continue;
        let span = shots.get(r.shot_id);
        if (!span) shots.set(r.shot_id, (span = { segmentId: null, shotId: r.shot_id, startS: r.start_s, endS: r.end_s, sources: { service: {}, local: {}, maxFaces: null } }));
        addLocal(span.sources, r);
      }
      return [...spans, ...shots.values()].sort((a, b) => a.startS - b.startS);
    },
  };
  return store;
}

export type TagResolutionStore = ReturnType<typeof createTagResolutionStore>;
