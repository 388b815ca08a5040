import type { PersonSpan } from '../../people/person-presence';
import type { Hit } from '../results/result-groups';

/**
 * Where the people of a query are (`@Maria @Tom -@Ana`), in the segments search lists: each segment
 * cut down to the parts where every included person is visible and no excluded one is. Pure: the
 * spans come from the presence read model, the segments from people-scope-store.ts.
 *
 * Frames decide when both sides count them (decoded frame numbers, Out exclusive, as shots and
 * segments do); times only when one side has no frames (a clip analysed from its URL).
 */

/** A segment as the scope reads it. */
export interface ScopeSegment {
  segmentId: number;
  shotId: number;
  startS: number;
  endS: number;
  startFrame: number | null;
  endFrame: number | null;
}

/** A part of a segment: its times, and its frames when they are counted. */
export interface Piece {
  startS: number;
  endS: number;
  startFrame: number | null;
  endFrame: number | null;
}

type Extent = Piece;

function spanExtent(s: PersonSpan): Extent {
  return { startS: s.startS, endS: s.endS, startFrame: s.inFrame, endFrame: s.outFrame };
}

const framed = (a: Extent, b: Extent) => a.startFrame !== null && a.endFrame !== null && b.startFrame !== null && b.endFrame !== null;

function isEmpty(p: Extent): boolean {
  return p.startFrame !== null && p.endFrame !== null ? p.endFrame <= p.startFrame : p.endS <= p.startS;
}

function overlaps(a: Extent, b: Extent): boolean {
  return framed(a, b) ? a.startFrame! < b.endFrame! && b.startFrame! < a.endFrame! : a.startS < b.endS && b.startS < a.endS;
}

/** The part of `a` inside `b` (frames kept only when both count them). */
function intersect(a: Extent, b: Extent): Extent {
  const f = framed(a, b);
  return {
    startS: Math.max(a.startS, b.startS),
    endS: Math.min(a.endS, b.endS),
    startFrame: f ? Math.max(a.startFrame!, b.startFrame!) : null,
    endFrame: f ? Math.min(a.endFrame!, b.endFrame!) : null,
  };
}

/** The parts of `a` outside `b`: none, one or two. */
function subtract(a: Extent, b: Extent): Extent[] {
  if (!overlaps(a, b)) return [a];
  const f = framed(a, b);
  const before: Extent = { startS: a.startS, endS: Math.min(a.endS, b.startS), startFrame: f ? a.startFrame : null, endFrame: f ? Math.min(a.endFrame!, b.startFrame!) : null };
  const after: Extent = { startS: Math.max(a.startS, b.endS), endS: a.endS, startFrame: f ? Math.max(a.startFrame!, b.endFrame!) : null, endFrame: f ? a.endFrame : null };
  return [before, after].filter((p) => !isEmpty(p));
}

/**
 * The parts of one segment where the included people are (`included`: their intersected spans;
 * null when the query names only people to leave out: the whole segment), less where any excluded
 * person is. Spans of other shots are ignored: a span never crosses a cut.
 *
 * A segment holding two separate spans of a person gives two pieces, not the one with the most
 * overlap nor one range over both: the editor asked where Maria is, and the gap between is where she
 * is not. A span running over two segments gives a piece in each that end and start on the same
 * frame, and result-groups.ts merges touching hits of one shot back into one range.
 */
export function piecesOf(segment: ScopeSegment, included: readonly PersonSpan[] | null, excluded: readonly PersonSpan[]): Piece[] {
  const whole: Extent = { startS: segment.startS, endS: segment.endS, startFrame: segment.startFrame, endFrame: segment.endFrame };
  let pieces: Extent[] =
    included === null
      ? [whole]
      : included
          .filter((s) => s.shotId === segment.shotId && overlaps(whole, spanExtent(s)))
          .map((s) => intersect(whole, spanExtent(s)))
          .filter((p) => !isEmpty(p));
  for (const s of excluded) if (s.shotId === segment.shotId) pieces = pieces.flatMap((p) => subtract(p, spanExtent(s)));
  return pieces.sort((a, b) => a.startS - b.startS);
}

/** Where the included people are in a shot that has no searchable segment: a moment known from the faces alone. */
export interface UnindexedPiece extends Piece {
  clipId: number;
  shotId: number;
  shotStartS: number;
}

/** The people of a query over the segments they touch: which may be listed, and each one's pieces. */
export interface PeopleScope {
  /** Segments with a piece left; null when nobody is included (every segment may be, less `pieces`' empty ones). */
  segments: Set<number> | null;
  /** Every segment the people touch, with its pieces ([] when nothing is left of it); a segment absent is untouched. */
  pieces: Map<number, Piece[]>;
  /**
   * Where the included people are in shots without a searchable segment (a clip not sent to the
   * service yet, or offline when it was indexed), less the excluded people: these moments are
   * answered from the local faces alone. [] when the query includes nobody (`-@Tom` alone lists
   * the searchable segments without Tom, as before).
   */
  unindexed: UnindexedPiece[];
}

export function peopleScope(segments: readonly ScopeSegment[], included: readonly PersonSpan[] | null, excluded: readonly PersonSpan[]): PeopleScope {
  // By shot: a person seen in many clips must not make every segment read every span.
  const byShot = (spans: readonly PersonSpan[]) => {
    const m = new Map<number, PersonSpan[]>();
    for (const s of spans) (m.get(s.shotId) ?? m.set(s.shotId, []).get(s.shotId)!).push(s);
    return m;
  };
  const inShot = included === null ? null : byShot(included);
  const outShot = byShot(excluded);
  const pieces = new Map<number, Piece[]>();
  for (const seg of segments) {
    const inc = inShot?.get(seg.shotId);
    const exc = outShot.get(seg.shotId) ?? [];
    const whole: Extent = { startS: seg.startS, endS: seg.endS, startFrame: seg.startFrame, endFrame: seg.endFrame };
    // Only exclusions: a segment where no excluded person is seen is untouched (absent), not narrowed.
    if (inShot === null ? !exc.some((s) => overlaps(whole, spanExtent(s))) : !inc) continue;
    pieces.set(seg.segmentId, piecesOf(seg, inShot === null ? null : inc!, exc));
  }
  if (inShot === null) return { segments: null, pieces, unindexed: [] };
  // A shot with a searchable segment is covered by its segments (they tile it); any other is not in the index.
  const indexedShots = new Set(segments.map((s) => s.shotId));
  const unindexed: UnindexedPiece[] = [];
  for (const s of included!) {
    if (indexedShots.has(s.shotId)) continue;
    let parts: Extent[] = [spanExtent(s)];
    for (const x of outShot.get(s.shotId) ?? []) parts = parts.flatMap((p) => subtract(p, spanExtent(x)));
    for (const p of parts) unindexed.push({ ...p, clipId: s.clipId, shotId: s.shotId, shotStartS: s.shotStartS });
  }
  return { segments: new Set([...pieces].filter(([, p]) => p.length > 0).map(([id]) => id)), pieces, unindexed };
}

/**
 * The segments a search may list: the filters' (null: every one) and the people's, ANDed. With
 * only exclusions and no other filter the answer stays null (every segment), and narrowHits drops
 * the segments wholly taken by an excluded person.
 */
export function allowedWithPeople(filtered: Set<number> | null, scope: PeopleScope): Set<number> | null {
  const dropped = (id: number) => scope.pieces.get(id)?.length === 0;
  if (scope.segments === null) return filtered ? new Set([...filtered].filter((id) => !dropped(id))) : null;
  return filtered ? new Set([...scope.segments].filter((id) => filtered.has(id))) : new Set(scope.segments);
}

/** Each hit of a segment the people touch as its pieces (same score): the moments where they are. */
export function narrowHits(hits: readonly Hit[], scope: PeopleScope): Hit[] {
  return hits.flatMap((h) => {
    const pieces = h.segmentId === null ? undefined : scope.pieces.get(h.segmentId);
    return pieces === undefined ? [h] : pieces.map((p) => ({ ...h, startS: p.startS, endS: p.endS, startFrame: p.startFrame, endFrame: p.endFrame }));
  });
}

/**
 * The moments of the people in shots the index has no segment of, as hits: no segment, unscored
 * (`judged: false`: nothing compared them with a query's text). `passing`: the clips the other
 * filters let through (null: no other filter).
 */
export function unindexedHits(scope: PeopleScope, passing: ReadonlySet<number> | null): Hit[] {
  return scope.unindexed
    .filter((p) => passing === null || passing.has(p.clipId))
    .map((p) => ({ clipId: p.clipId, segmentId: null, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, startFrame: p.startFrame, endFrame: p.endFrame, similarity: 0, score: 0, source: 'local', judged: false }));
}
