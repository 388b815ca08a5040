import { AppError } from '../../../src-shared/errors';
import { gridTime } from '../media/frame-grid';
import { ShotCursor } from '../tensors/shot-grid';
import type { AnalyzeShotInput } from './analyze-clip-options';

/** The shots an analysis is for, in time order, and which of the decode's grid frames fall in each. */

export function checkShots(shots: readonly AnalyzeShotInput[]): AnalyzeShotInput[] {
  const sorted = [...shots].sort((a, b) => a.startS - b.startS);
  for (const [i, s] of sorted.entries()) {
    if (!Number.isFinite(s.startS) || !Number.isFinite(s.endS) || s.startS < 0 || s.endS <= s.startS) {
      throw new AppError('invalid', `shot ${s.id} has an empty or invalid range ${s.startS}..${s.endS}`);
    }
    const prev = sorted[i - 1];
    if (prev && s.startS < prev.endS - 1e-3) throw new AppError('invalid', `shots ${prev.id} and ${s.id} overlap`);
  }
  return sorted;
}

/** Runs of consecutive frames on a grid whose times fall in one shot: [first, end) indices per shot. */
export function framesPerShot(shots: readonly AnalyzeShotInput[], count: number, fps: number): Map<number, { first: number; end: number }> {
  const cursor = new ShotCursor(shots);
  const out = new Map<number, { first: number; end: number }>();
  for (let k = 0; k < count; k++) {
    const s = cursor.at(gridTime(k, fps));
    if (!s) continue;
    const r = out.get(s.id);
    if (r) r.end = k + 1;
    else out.set(s.id, { first: k, end: k + 1 });
  }
  return out;
}

/** Items made for `sorted` shots, put in the order of `wanted`. */
export function reorder<T>(items: readonly T[], sorted: readonly AnalyzeShotInput[], wanted: readonly AnalyzeShotInput[]): T[] {
  const at = new Map(sorted.map((s, i) => [s.id, i]));
  return wanted.map((s) => items[at.get(s.id)!]!);
}
