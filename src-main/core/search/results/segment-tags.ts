import type { SegmentTag, TagField } from '../../../../src-shared/contract/search';
import { tagLabel } from '../../tags/tag-vocabulary';
import { PEOPLE_LABELS, peopleFor, resolveTag, type TagResolutionStore, type TagSources } from '../query/tag-resolution-store';

const FIELDS: readonly TagField[] = ['shotSize', 'cameraMovement', 'shootingAngle'];

/**
 * The tags a card shows per segment: for each field the one tag decided between the service's
 * (per segment) and the local analysis's (per shot), by the rule filters and facets use
 * (tag-resolution-store.ts), with the losing source kept as `other`; and the people in the shot.
 */
export function tagsForSegments(tags: TagResolutionStore, segmentIds: readonly number[]): Map<number, SegmentTag[]> {
  const out = new Map<number, SegmentTag[]>();
  for (const [id, sources] of tags.sourcesOfSegments(segmentIds)) out.set(id, resolvedTags(sources));
  return out;
}

/** One tag per field from the two sources (rule in tag-resolution-store.ts), the loser kept as `other`, then people. */
function resolvedTags(sources: TagSources): SegmentTag[] {
  const tags: SegmentTag[] = [];
  for (const field of FIELDS) {
    const s = sources.service[field] ?? null;
    const l = sources.local[field] ?? null;
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
  const p = peopleFor(sources.maxFaces);
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
export function clipTagSpans(tags: TagResolutionStore, clipId: number): TagSpan[] {
  return tags.spansOfClip(clipId).map(({ sources, ...span }) => ({ ...span, tags: resolvedTags(sources) }));
}
