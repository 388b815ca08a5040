import type { PersonSpan } from './person-presence';

/** A face sample of a person as the catalog holds it, with its shot's extent. */
export interface PersonSample {
  personId: number;
  clipId: number;
  shotId: number;
  timeS: number;
  shotStartS: number;
  shotEndS: number;
  /** The shot's frames, Out exclusive; null when the clip counts none. */
  shotStartFrame: number | null;
  shotEndFrame: number | null;
}

/**
 * The frame a time falls on in a shot of n frames over [startS, endS): counted on the shot's own
 * frames (as catalog migration 0052 counts segments), so a time at the shot's end is its Out.
 */
export function frameInShot(t: number, s: Pick<PersonSample, 'shotStartS' | 'shotEndS' | 'shotStartFrame' | 'shotEndFrame'>): number | null {
  if (s.shotStartFrame === null || s.shotEndFrame === null) return null;
  const span = s.shotEndS - s.shotStartS;
  if (!(span > 0)) return s.shotStartFrame;
  const f = s.shotStartFrame + Math.round(((t - s.shotStartS) * (s.shotEndFrame - s.shotStartFrame)) / span);
  return Math.max(s.shotStartFrame, Math.min(s.shotEndFrame, f));
}

/**
 * A person's samples (sorted by clip, shot, time) as spans: samples up to two grid steps apart make
 * one run (one missed detection between two, a blink or a turned head, does not split it); each
 * sample stands for half a step either side, clamped to its shot.
 * A span is at least one frame long.
 */
export function spansFromSamples(samples: readonly PersonSample[], stepS: number): PersonSpan[] {
  const out: PersonSpan[] = [];
  let run: { first: PersonSample; last: PersonSample } | null = null;
  const close = () => {
    if (!run) return;
    const { first, last } = run;
    const startS = Math.max(first.shotStartS, first.timeS - stepS / 2);
    const endS = Math.min(first.shotEndS, last.timeS + stepS / 2);
    const inFrame = frameInShot(startS, first);
    let outFrame = frameInShot(endS, first);
    if (inFrame !== null && outFrame !== null && outFrame <= inFrame) outFrame = inFrame + 1;
    out.push({ personId: first.personId, clipId: first.clipId, shotId: first.shotId, shotStartS: first.shotStartS, inFrame, outFrame, startS, endS: Math.max(endS, startS) });
    run = null;
  };
  for (const s of samples) {
    if (run && run.last.personId === s.personId && run.last.shotId === s.shotId && s.timeS - run.last.timeS <= stepS * 2.5) {
      if (s.timeS > run.last.timeS) run.last = s;
      continue;
    }
    close();
    run = { first: s, last: s };
  }
  close();
  return out;
}

/**
 * Where every person of `groups` is visible at once: the intersection of their spans, shot by
 * shot ("@Maria @Tom": both in the same shot, at the same time). Spans of each group are sorted
 * by clip, shot and time and do not overlap within a group.
 */
export function intersectSpans(groups: ReadonlyArray<readonly PersonSpan[]>): PersonSpan[] {
  if (groups.length === 0) return [];
  let acc = groups[0]!.slice();
  for (const next of groups.slice(1)) {
    const byShot = new Map<number, PersonSpan[]>();
    for (const s of next) (byShot.get(s.shotId) ?? byShot.set(s.shotId, []).get(s.shotId)!).push(s);
    const merged: PersonSpan[] = [];
    for (const a of acc) {
      for (const b of byShot.get(a.shotId) ?? []) {
        const startS = Math.max(a.startS, b.startS);
        const endS = Math.min(a.endS, b.endS);
        if (endS <= startS) continue;
        const inFrame = a.inFrame !== null && b.inFrame !== null ? Math.max(a.inFrame, b.inFrame) : null;
        const outFrame = a.outFrame !== null && b.outFrame !== null ? Math.min(a.outFrame, b.outFrame) : null;
        if (inFrame !== null && outFrame !== null && outFrame <= inFrame) continue;
        merged.push({ ...a, inFrame, outFrame, startS, endS });
      }
    }
    acc = merged;
  }
  return acc;
}
