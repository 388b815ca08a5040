import { describe, expect, it } from 'vitest';
import type { FaceIdentity } from '../../../src-main/core/analysis/analysis-types';
import { IdentityCarry, steady, type CarryOptions, type EmbedGroup } from '../../../src-main/core/analysis/identity-carry';
import type { RawFace } from '../../../src-main/core/analysis/workers/yunet.cjs';

const face = (x: number, tag: string): RawFace & { tag: string } => ({ x, y: 0.2, w: 0.2, h: 0.3, score: 0.9, landmarks: [], tag });
/** A sample's identity patch, told apart by its first byte. */
const frameOf = (n: number) => ({ data: new Uint8Array([n, n, n]), x: 0, y: 0, w: 0, h: 0 });
const unit = (axis: number) => Float32Array.from({ length: 4 }, (_, i) => (i === axis ? 1 : 0));
const identity = (embedding: Float32Array): FaceIdentity => ({ model: 'm', eyePx: 30, sharpness: 10, yaw: 0, quality: 0.8, assignable: true, embedding, thumb: new Uint8Array(1) });
const carriedFrom = (src: FaceIdentity, _face: RawFace, thumb: Uint8Array | null): FaceIdentity => ({ ...src, thumb });
const NOBODY: FaceIdentity = { model: 'm', eyePx: 30, sharpness: 0, yaw: 0, quality: 0, assignable: false, embedding: null, thumb: null };
const unembedded = (): FaceIdentity => NOBODY;
/** Every fourth sample, so a short test shows a track's middle embeddings. */
const EVERY_FOURTH: CarryOptions = { maxAge: 4, minIou: 0.5, minAgree: 0.5, maxDrift: 0.1 };

/** Plays the worker: each face embedded gets the embedding of the person its tag names. */
function embedAll(groups: readonly EmbedGroup[], who: (f: RawFace) => number, log: string[]): void {
  for (const g of groups) for (const f of g.faces) {
    f.identity = g.thumbOnly ? { ...NOBODY, thumb: new Uint8Array(1) } : identity(unit(who(f)));
    log.push(`${g.thumbOnly ? 'thumb ' : ''}${(f as RawFace & { tag: string }).tag}@${g.frame.data[0]}`);
  }
}

describe('IdentityCarry: which faces are embedded and which carry an embedding', () => {
  it('embeds a steady face at its first sample and every fourth after; its last only has its crop kept; the ones between carry the one before', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const faces = Array.from({ length: 10 }, (_, i) => face(0.4, `s${i}`));
    const log: string[] = [];
    for (const batch of [faces.slice(0, 4), faces.slice(4, 8), faces.slice(8)]) {
      const first = faces.indexOf(batch[0]!);
      embedAll(carry.plan(batch.map((f, k) => ({ frame: frameOf(first + k), faces: [f] }))), () => 0, log);
      expect(carry.settle()).toEqual([]);
    }
    embedAll(carry.finish(), () => 0, log);
    expect(carry.settle()).toEqual([]);
    expect(log).toEqual(['s0@0', 's4@4', 's8@8', 'thumb s9@9']);
    for (const f of faces) expect(f.identity?.embedding).toEqual(unit(0));
    expect(faces.filter((f) => f.identity!.thumb).length).toBe(4);
  });

  it('embeds each face between two embeddings that disagree, from its own frame (a cut to someone framed alike)', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const faces = Array.from({ length: 5 }, (_, i) => face(0.4, `s${i}`));
    const log: string[] = [];
    // Person 0 until sample 2, person 1 from sample 3: sample 4 is the track's next embedding.
    const who = (f: RawFace) => (faces.indexOf(f as never) < 3 ? 0 : 1);
    embedAll(carry.plan(faces.map((f, k) => ({ frame: frameOf(k), faces: [f] }))), who, log);
    const again = carry.settle();
    expect(again.map((g) => [g.frame.data[0], g.faces.length])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    embedAll(again, who, log);
    expect(faces.map((f) => f.identity!.embedding)).toEqual([unit(0), unit(0), unit(0), unit(1), unit(1)]);
  });

  it('ends a track that moved with an embedding of its last face, from that face frame kept aside', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    // Each face moves a fifth of its width over the track: past maxDrift, so its ends are compared.
    const a = [face(0.1, 'a0'), face(0.12, 'a1'), face(0.14, 'a2')];
    const b = [face(0.6, 'b0'), face(0.64, 'b1')];
    const log: string[] = [];
    // a is seen three samples, b from the second on; at the fourth sample only b is left.
    const samples = [{ faces: [a[0]!] }, { faces: [a[1]!, b[0]!] }, { faces: [b[1]!, a[2]!] }, { faces: [] }].map((s, k) => ({ frame: frameOf(k), ...s }));
    const groups = carry.plan(samples);
    embedAll(groups, (f) => (a.includes(f as never) ? 0 : 1), log);
    expect(carry.settle()).toEqual([]);
    expect(log.sort()).toEqual(['a0@0', 'a2@2', 'b0@1', 'b1@2']);
    // Sample 2's frame was sent with no face of its own (b1 and a2 carried): a2 is embedded from that frame.
    expect(groups.find((g) => g.faces.includes(a[2]!))!.frame).toBe(samples[2]!.frame);
    expect(a[1]!.identity!.embedding).toEqual(unit(0));
  });

  it('asks again for a frame already sent with a fresh face when a face carried at that sample must be embedded after all (the pool copies frames, never transfers them)', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const a = [face(0.1, 'a0'), face(0.12, 'a1'), face(0.14, 'a2')];
    const b = [face(0.6, 'b0')];
    const samples = [{ faces: [a[0]!] }, { faces: [a[1]!, b[0]!] }, { faces: [a[2]!] }, { faces: [] }].map((s, k) => ({ frame: frameOf(k), ...s }));
    const groups = carry.plan(samples);
    // b0 is fresh at sample 1: its frame is sent; a1, carried there, keeps the same frame (no copy).
    expect(groups.find((g) => g.faces.includes(b[0]!))!.frame).toBe(samples[1]!.frame);
    const log: string[] = [];
    // a's ends disagree (a0 and a2 two people's embeddings): a1 is embedded after all, from sample 1's frame.
    embedAll(groups, (f) => (f === a[2] ? 2 : 0), log);
    const again = carry.settle();
    expect(again.map((g) => g.faces)).toEqual([[a[1]]]);
    expect(again[0]!.frame).toBe(samples[1]!.frame);
  });

  it('a track that ends before a sample without an identity frame ends as any other', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const faces = Array.from({ length: 4 }, (_, i) => face(0.4, `s${i}`));
    const log: string[] = [];
    embedAll(carry.plan([{ frame: frameOf(0), faces: [faces[0]!] }, { frame: frameOf(1), faces: [faces[1]!] }, { frame: null, faces: [] }, { frame: frameOf(3), faces: [faces[3]!] }]), () => 0, log);
    expect(carry.settle()).toEqual([]);
    // s1 ends its track (no frame after it) where s0 was: it carries s0's embedding.
    expect(log).toEqual(['s0@0', 'thumb s1@1', 's3@3']);
    expect(faces[1]!.identity!.embedding).toEqual(unit(0));
  });

  it('embeds the faces of a steady track one by one when its one embedding is missing (a blurred first face)', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const faces = Array.from({ length: 3 }, (_, i) => face(0.4, `s${i}`));
    const log: string[] = [];
    const groups = carry.plan(faces.map((f, k) => ({ frame: frameOf(k), faces: [f] })));
    embedAll(groups, () => 0, log);
    faces[0]!.identity = { ...faces[0]!.identity!, assignable: false, embedding: null };
    expect(carry.settle()).toEqual([]);
    embedAll(carry.finish(), () => 0, log);
    const each = carry.settle();
    expect(each.map((g) => [g.frame.data[0], g.faces.length])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    embedAll(each, () => 0, log);
    expect(log).toEqual(['s0@0', 'thumb s2@2', 's1@1', 's2@2']);
  });

  it('faces at samples without an identity frame carry their track: before its first frame, between two, after its last', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const s = Array.from({ length: 5 }, (_, i) => face(0.4, `s${i}`));
    const log: string[] = [];
    // Frames at samples 1 and 3 only (identity frames at half the face rate, offset by one).
    const framed = (k: number) => (k % 2 === 1 ? frameOf(k) : null);
    embedAll(carry.plan(s.map((f, k) => ({ frame: framed(k), faces: [f] }))), () => 0, log);
    expect(carry.settle()).toEqual([]);
    embedAll(carry.finish(), () => 0, log);
    expect(carry.settle()).toEqual([]);
    // s4, the last, has no frame: the crop kept is of s3, the last with one.
    expect(log).toEqual(['s1@1', 'thumb s3@3']);
    for (const f of s) expect(f.identity?.embedding).toEqual(unit(0));
  });

  it('a track seen only without identity frames is nobody; a moved one embeds its last framed face, and the frameless tail carries it only when steady', () => {
    const carry = new IdentityCarry(carriedFrom, unembedded, EVERY_FOURTH);
    const never = [face(0.05, 'n0'), face(0.05, 'n1')];
    // m moves a fifth of its width a sample: its ends are not steady, and m2 (framed) is its last embedding; m3 moved again.
    const m = [face(0.5, 'm0'), face(0.54, 'm1'), face(0.58, 'm2'), face(0.62, 'm3')];
    const log: string[] = [];
    const frames = [frameOf(0), null, frameOf(2), null];
    embedAll(
      carry.plan(frames.map((frame, k) => ({ frame, faces: [m[k]!, ...(k % 2 === 1 ? [never[k >> 1]!] : [])] }))),
      () => 0,
      log,
    );
    embedAll(carry.settle(), () => 0, log);
    embedAll(carry.finish(), () => 0, log);
    expect(carry.settle()).toEqual([]);
    expect(log.sort()).toEqual(['m0@0', 'm2@2']);
    for (const f of never) expect(f.identity).toBe(NOBODY);
    expect(m[1]!.identity!.embedding).toEqual(unit(0));
    // m3 drifted from m2 by a fifth of its width: not steady, so nobody's rather than a guess.
    expect(m[3]!.identity).toBe(NOBODY);
  });

  it('steady: the same box and landmarks within maxDrift; a move, a zoom or a turned head is not', () => {
    const lm = (dx: number) => [0.45 + dx, 0.3, 0.55, 0.3, 0.5, 0.35, 0.46, 0.42, 0.54, 0.42];
    const at = (x: number, w: number, landmarks: number[]): RawFace => ({ x, y: 0.2, w, h: 0.3, score: 0.9, landmarks });
    const base = at(0.4, 0.2, lm(0));
    expect(steady(base, at(0.41, 0.2, lm(0.01)), 0.1)).toBe(true);
    expect(steady(base, at(0.45, 0.2, lm(0.05)), 0.1)).toBe(false); // moved a quarter of its width
    expect(steady(base, at(0.38, 0.24, lm(0)), 0.1)).toBe(false); // 20 % wider
    expect(steady(base, at(0.4, 0.2, lm(0.04)), 0.1)).toBe(false); // an eye a fifth of the box over: turned
    expect(steady(base, at(0.4, 0.2, []), 0.1)).toBe(false);
  });
});
