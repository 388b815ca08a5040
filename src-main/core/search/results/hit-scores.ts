import type { SearchHit } from '../index/vector-types';
import type { IndexView, QueryScorer } from '../relevance/relevance-model';
import type { CollectionHit } from './collection-hits';
import type { Hit } from './result-groups';
import type { SegmentPlace } from './result-store';

function dot(a: Float32Array, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** `v` scaled to unit length (a zero vector stays zero: it then matches nothing). */
export function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * s);
}

/** Index hits to scored Hit values: each local segment against its own baseline; a scorer of null orders by cosine. */
export function scoredHits(found: readonly SearchHit[], places: ReadonlyMap<number, SegmentPlace>, scorer: QueryScorer | null, minScore: number): Hit[] {
  const out: Hit[] = [];
  for (const h of found) {
    const p = places.get(h.id);
    if (!p) continue;
    const score = scorer ? scorer.segment(h.id, h.similarity).score : h.similarity;
    if (scorer && score < minScore) continue;
    out.push({ clipId: p.clipId, segmentId: h.id, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, startFrame: p.startFrame, endFrame: p.endFrame, similarity: h.similarity, score, source: 'local' });
  }
  return out;
}

/**
 * Collection hits on one scale with local ones: where the clip has local vectors, the moment's score
 * is the local one (the query against the vectors of the segments the hit names, or of the whole
 * clip), because that is the number calibrated against its own baseline; the service's similarity is
 * kept for the tooltip. A clip known only to the collection gets the service's similarity read as a
 * cosine of the same model against the library's typical baseline. `placesByClip` holds the
 * segments of the hits' clips (ResultStore.placesInClips).
 */
export function scoredCollectionHits(
  hits: readonly CollectionHit[],
  placesByClip: ReadonlyMap<number, readonly SegmentPlace[]>,
  query: Float32Array,
  index: Pick<IndexView, 'vector'>,
  scorer: QueryScorer | null,
  minScore: number,
): Hit[] {
  const out: Hit[] = [];
  for (const h of hits) {
    const own = (placesByClip.get(h.clipId) ?? []).filter((s) => index.vector(s.segmentId));
    const named = h.startS !== null && h.endS !== null ? own.filter((s) => s.startS < h.endS! && s.endS > h.startS!) : [];
    const evidence = named.length ? named : own;
    let best: { place: SegmentPlace; cos: number; score: number } | null = null;
    for (const s of evidence) {
      const cos = dot(index.vector(s.segmentId)!, query);
      const score = scorer ? scorer.segment(s.segmentId, cos).score : cos;
      if (!best || score > best.score) best = { place: s, cos, score };
    }
    const score = best ? best.score : scorer ? scorer.typical(h.similarity).score : h.similarity;
    if (scorer && score < minScore) continue;
    if (best) {
      // The local segment behind the score is part of the card (its poster, its tags).
      const p = best.place;
      out.push({ clipId: p.clipId, segmentId: p.segmentId, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, startFrame: p.startFrame, endFrame: p.endFrame, similarity: best.cos, score: best.score, source: 'local' });
    }
    // The service names its moment in seconds: its frames are the clip's at those times (result-cards.ts); without them, the local segment's.
    const timed = h.startS !== null && h.endS !== null;
    out.push({
      clipId: h.clipId,
      segmentId: null,
      shotStartS: best?.place.shotStartS ?? null,
      startS: timed ? h.startS : (best?.place.startS ?? null),
      endS: timed ? h.endS : (best?.place.endS ?? null),
      startFrame: timed ? null : (best?.place.startFrame ?? null),
      endFrame: timed ? null : (best?.place.endFrame ?? null),
      similarity: h.similarity,
      score,
      source: 'collection',
      videoId: h.videoId,
    });
  }
  return out;
}
