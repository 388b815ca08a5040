import type { FaceIdentity } from './analysis-types';
import { iou } from './workers/yunet.cjs';
import type { RawFace } from './workers/yunet.cjs';
import type { FramePatch } from './workers/face-align.cjs';

/**
 * Which faces of the sampled frames are embedded, and which carry an embedding made for the same
 * face in another sample. Running the model on every sample was most of what recognition cost
 * (about 6 ms a face, against a few hundred microseconds to decode its frame). A face seen in
 * consecutive samples (its box overlapping) is a track; a track is embedded at its first face and
 * every `maxAge` samples after; the faces between two embeddings carry the earlier one only when the
 * two agree (the same person at both ends). When they disagree (a cut or a swap in between, or a
 * face too small for its embeddings to agree), each face between is embedded after all, from its
 * frame's patch, kept until then (at most maxAge - 1 patches a track): a carried embedding is never
 * another person's. A track's last face is embedded too only when the track's ends disagree by box
 * or landmarks (`steady`: it moved, grew or turned, or a cut put someone else there); a steady
 * track's faces carry its last embedding to the end, which halves the model runs of the short tracks
 * most shots hold (a track of one 3 s shot was embedded twice). Samples are given in time order;
 * one batch at a time.
 */

export interface CarryOptions {
  /** Samples between two embeddings of one track. */
  maxAge: number;
  /** Box overlap (IoU) that continues a track from one sample to the next. */
  minIou: number;
  /** Cosine at which the two embeddings around carried faces are one person. */
  minAgree: number;
  /**
   * How far a track's last face may be from its last embedded one and still carry its embedding
   * without one of its own: box sides within this ratio, box centre and each landmark (relative to
   * its box) within this fraction of the box's side.
   */
  maxDrift: number;
}

/**
 * Every eighth sample (4 s at the 2 fps grid): the people matcher judges a track by its mean
 * embedding (people-service.ts), so more embeddings of one track change little; on bench:people,
 * every fourth sample gave recall 0.947 and every eighth 0.974, the same precision (1.0), 65 and
 * fewer model runs for batch 1's 111 faces. 0.5, the matcher's own bar for the same person
 * (people/grouping.ts): the clips' same person is 0.75 on average, different people 0.06; a run whose
 * ends fall short (the smallest faces, NTU's at 17-23 px between the eyes, agree at 0.40) costs only
 * the embeddings it would have saved.
 */
export const CARRY_DEFAULTS: CarryOptions = { maxAge: 8, minIou: 0.5, minAgree: 0.5, maxDrift: 0.1 };

interface Track {
  /**
   * The last face embedded; its identity is set once the batch's answer is in. Null until the track
   * reaches a sample with an identity frame (its faces so far wait in `pending`, frameless).
   */
  anchor: RawFace | null;
  /** Faces carried since the anchor, in time order, each with its frame's patch. */
  pending: Pending[];
  /** The track's newest face, and samples since the anchor. */
  last: RawFace;
  age: number;
}

/**
 * What to embed: faces of one sample, with the patch of its identity frame their alignments read
 * (face-identity.cjs identityPatch: the patch holds every face of the sample that may be embedded,
 * so any of them can be embedded from it later; the whole frame is not kept). With
 * `thumbOnly` the model is not run: the faces carry their track's embedding and only their crop is
 * kept (the People strip shows several faces of a one-shot clip, not one).
 */
export interface EmbedGroup {
  frame: FramePatch;
  faces: RawFace[];
  thumbOnly?: boolean;
}

interface Pending {
  face: RawFace;
  /**
   * The sample's identity patch, shared by its faces (the pool copies it to the worker, never
   * transfers it: it may be sent again by a later batch); null: the sample had none, the face can only carry.
   */
  frame: FramePatch | null;
}

/**
 * Once the embeddings of `plan` are in: each pending run between `from` and `to` is settled; with
 * `to` null (a steady track's end) the run carries `from` alone.
 */
interface Closing {
  from: RawFace;
  to: RawFace | null;
  pending: Pending[];
}

export class IdentityCarry {
  private tracks: Track[] = [];
  private closing: Closing[] = [];

  /**
   * `carried`: a face's identity carrying another's embedding (with its own crop when one was made
   * for it, a steady track's last face); `unembedded`: the identity of a face
   * that could not be embedded (no identity frame at its sample) and has no run to carry (not assignable).
   */
  constructor(
    private readonly carried: (src: FaceIdentity, face: RawFace, thumb: Uint8Array | null) => FaceIdentity,
    private readonly unembedded: (face: RawFace) => FaceIdentity,
    private readonly o: CarryOptions = CARRY_DEFAULTS,
  ) {}

  /**
   * Plans a batch: `samples[k]` is frame k's identity patch (null: none, the track chain breaks) and
   * its faces that may be embedded (the landmarks did not rule them out). Returns what to embed;
   * call `settle` once their identities are set.
   */
  plan(samples: ReadonlyArray<{ frame: FramePatch | null; faces: readonly RawFace[] }>): EmbedGroup[] {
    const groups: EmbedGroup[] = [];
    samples.forEach(({ frame, faces }) => {
      const fresh: RawFace[] = [];
      const next: Track[] = [];
      const continued = new Set<Track>();
      const pairs: Array<{ face: RawFace; track: Track; o: number }> = [];
      for (const face of faces) for (const track of this.tracks) pairs.push({ face, track, o: iou(track.last, face) });
      pairs.sort((a, b) => b.o - a.o);
      const placed = new Set<RawFace>();
      for (const p of pairs) {
        if (p.o < this.o.minIou || placed.has(p.face) || continued.has(p.track)) continue;
        placed.add(p.face);
        continued.add(p.track);
        const t = p.track;
        const before = t.last;
        t.last = p.face;
        t.age++;
        if (frame && t.anchor === null) {
          // The first identity frame of a track seen first without: its faces so far carry this one's embedding.
          fresh.push(p.face);
          this.carryBack(p.face, t.pending, before);
          t.anchor = p.face;
          t.pending = [];
          t.age = 0;
        } else if (t.age < this.o.maxAge || !frame) {
          t.pending.push({ face: p.face, frame });
        } else {
          fresh.push(p.face);
          this.closing.push({ from: t.anchor!, to: p.face, pending: t.pending });
          t.anchor = p.face;
          t.pending = [];
          t.age = 0;
        }
        next.push(t);
      }
      // A track that does not go on ends (its last face embedded when it drifted from its last embedding).
      const ended = this.tracks.filter((t) => !continued.has(t));
      groups.push(...this.end(ended));
      for (const face of faces) {
        if (placed.has(face)) continue;
        if (frame) {
          fresh.push(face);
          next.push({ anchor: face, pending: [], last: face, age: 0 });
        } else {
          next.push({ anchor: null, pending: [{ face, frame: null }], last: face, age: 0 });
        }
      }
      this.tracks = next;
      if (frame && fresh.length > 0) groups.push({ frame, faces: fresh });
    });
    return groups;
  }

  /**
   * Faces of a track seen before its first identity frame (`pending`, frameless, the last of them
   * `before`) carry the embedding of `anchor`, the track's first face with a frame, when they are
   * steady with it; else nobody's.
   */
  private carryBack(anchor: RawFace, pending: Pending[], before: RawFace): void {
    if (pending.length === 0) return;
    if (steady(anchor, before, this.o.maxDrift) && steady(anchor, pending[0]!.face, this.o.maxDrift)) this.closing.push({ from: anchor, to: null, pending });
    else for (const p of pending) p.face.identity = this.unembedded(p.face);
  }

  /** The decode is over: every open track ends. */
  finish(): EmbedGroup[] {
    return this.endAll();
  }

  /**
   * The embeddings asked for are in: carried faces take their run's first embedding when its ends
   * agree; the faces of the runs whose ends disagree are returned, to be embedded each from its own
   * frame (no run is left for them to carry).
   */
  settle(): EmbedGroup[] {
    const again: Pending[] = [];
    for (const c of this.closing) {
      const a = c.from.identity;
      const b = c.to ? c.to.identity : a;
      if (a?.embedding && b?.embedding && dot(a.embedding, b.embedding) >= this.o.minAgree) for (const p of c.pending) p.face.identity = this.carried(a, p.face, p.face.identity?.thumb ?? null);
      else again.push(...c.pending);
    }
    this.closing = [];
    return this.groupByFrame(again);
  }

  private endAll(): EmbedGroup[] {
    const groups = this.end(this.tracks);
    this.tracks = [];
    return groups;
  }

  /**
   * Each track's last face, when carried, is embedded after all, from the patch it was kept with,
   * unless it is steady with the face last embedded: then the run carries that one to the end (or,
   * when that one had no embedding, each face of the run is embedded in `settle`). Without a frame
   * at its last face, the last face that has one is embedded, and the frameless ones after it carry
   * it when steady with it. A track that never reached an identity frame is nobody's.
   */
  private end(tracks: readonly Track[]): EmbedGroup[] {
    const lasts: Pending[] = [];
    const thumbs: Pending[] = [];
    for (const t of tracks) {
      if (t.pending.length === 0) continue;
      if (t.anchor === null) {
        for (const p of t.pending) p.face.identity = this.unembedded(p.face);
        continue;
      }
      const last = t.pending[t.pending.length - 1]!;
      if (steady(t.anchor, last.face, this.o.maxDrift)) {
        // The crop of its last face with a frame is still kept (a thumbnail only, no model run): the strip's second face of the track.
        const framed = t.pending.findLast((p) => p.frame !== null);
        if (framed) thumbs.push(framed);
        this.closing.push({ from: t.anchor, to: null, pending: t.pending });
        continue;
      }
      const at = t.pending.findLastIndex((p) => p.frame !== null);
      const tail = at < 0 ? t.pending : t.pending.splice(at + 1);
      if (at >= 0) {
        const end = t.pending.pop()!;
        lasts.push(end);
        this.closing.push({ from: t.anchor, to: end.face, pending: t.pending });
        this.carryBack(end.face, tail, tail[tail.length - 1]?.face ?? end.face);
      } else {
        for (const p of tail) p.face.identity = this.unembedded(p.face);
      }
    }
    return [...this.groupByFrame(lasts), ...this.groupByFrame(thumbs).map((g) => ({ ...g, thumbOnly: true }))];
  }

  /** Faces to embed, one group per frame; those without a frame cannot be, and are nobody's. */
  private groupByFrame(faces: readonly Pending[]): EmbedGroup[] {
    const groups = new Map<FramePatch, RawFace[]>();
    for (const p of faces) {
      if (p.frame) (groups.get(p.frame) ?? groups.set(p.frame, []).get(p.frame)!).push(p.face);
      else p.face.identity = this.unembedded(p.face);
    }
    return [...groups].map(([frame, list]) => ({ frame, faces: list }));
  }
}

/**
 * Whether two faces of one track are alike in box and landmarks: sides within 1 + maxDrift of each
 * other, the centre within maxDrift of the box's side, each landmark at the same place in its box
 * (within maxDrift of the side). A face that moved, grew, turned or changed expression past that is
 * not (its track's ends are then embedded and compared), nor is a face without landmarks beside
 * one with.
 */
export function steady(a: RawFace, b: RawFace, maxDrift: number): boolean {
  const ratio = (p: number, q: number) => Math.max(p / q, q / p);
  if (!(ratio(a.w, b.w) <= 1 + maxDrift && ratio(a.h, b.h) <= 1 + maxDrift)) return false;
  if (Math.abs(a.x + a.w / 2 - (b.x + b.w / 2)) > maxDrift * a.w || Math.abs(a.y + a.h / 2 - (b.y + b.h / 2)) > maxDrift * a.h) return false;
  if (a.landmarks.length !== b.landmarks.length) return false;
  for (let i = 0; i < a.landmarks.length; i += 2) {
    const dx = (a.landmarks[i]! - a.x) / a.w - (b.landmarks[i]! - b.x) / b.w;
    const dy = (a.landmarks[i + 1]! - a.y) / a.h - (b.landmarks[i + 1]! - b.y) / b.h;
    if (Math.abs(dx) > maxDrift || Math.abs(dy) > maxDrift) return false;
  }
  return true;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
