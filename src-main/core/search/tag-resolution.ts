import type { PEOPLE_VALUES, TagField } from '../../../src-shared/contract/search';

/**
 * One tag per field and segment, decided between the service's tag (per segment) and the local
 * analysis's (per shot, shared by its segments). The rule, the same here and in SQL:
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
export const PEOPLE_SQL = `
  SELECT s.id AS segment_id,
    CASE WHEN sa.max_faces <= 0 THEN 'no_people' WHEN sa.max_faces = 1 THEN 'one_person' WHEN sa.max_faces = 2 THEN 'two_people' ELSE 'group' END AS value
  FROM segments s JOIN shot_analysis sa ON sa.shot_id = s.shot_id`;
