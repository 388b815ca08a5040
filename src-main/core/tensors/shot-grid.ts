/**
 * Where a clip's sampled frames and audio samples sit. The grid is anchored at the start of the
 * file: frame k of a stream sampled at `fps` is at k / fps, audio sample j at j / rate. Analysis
 * (which plans the tensors) and the upload stage (which rebuilds a tensor evicted from memory)
 * decode from the start of the file with the same filters and cut it into shots with these rules,
 * so both get the same bytes, and so the same request ids.
 */
import type { VideoOutput } from '../media/clip-decoder';
import { displaySize, fitGeometry, type ContentBox } from '../media/frame-geometry';
import type { TensorProfile } from './tensor-profile';

export const GRID_EPS = 1e-6;

/**
 * The tensor frames' decoder output: the profile's rate, its size and fit over the displayed
 * picture (SAR applied). Analysis and the upload stage's rebuild both decode with this one
 * definition, which is what makes their bytes equal.
 */
export function tensorOutput(source: { width: number; height: number; sar: number }, profile: TensorProfile): { output: VideoOutput; disp: { width: number; height: number }; content: ContentBox } {
  const disp = displaySize(source.width, source.height, source.sar);
  const geometry = fitGeometry(disp.width, disp.height, profile.frameWidth, profile.frameHeight, profile.fit);
  return { output: { name: 'tensor', fps: profile.fps, geometry, pixFmt: 'rgb24' }, disp, content: geometry.content };
}

export interface TimeSpan {
  startS: number;
  endS: number;
}

/** Index of the audio sample at time t (from the origin). */
export function sampleIndex(t: number, rate: number): number {
  return Math.round(t * rate);
}

/**
 * Which shot a sampled time belongs to, for times that only increase (one cursor per stream):
 * a shot holds [startS, endS) with GRID_EPS of slack on both sides, the gaps between shots none.
 */
export class ShotCursor<T extends TimeSpan> {
  private next = 0;

  constructor(private readonly shots: readonly T[]) {}

  at(t: number): T | null {
    while (this.next < this.shots.length && this.shots[this.next]!.endS <= t + GRID_EPS) this.next++;
    const s = this.shots[this.next];
    return s && s.startS <= t + GRID_EPS ? s : null;
  }
}

/** Audio kept from a stream as it arrives, cut into shot slices by sample index, oldest dropped. */
export class AudioWindow {
  private parts: Float32Array[] = [];
  /** Sample index of parts[0][0]. */
  private base = 0;
  total = 0;

  push(samples: Float32Array): void {
    this.parts.push(samples);
    this.total += samples.length;
  }

  /** Samples [from, to), zeros where the stream has none. */
  take(from: number, to: number): Float32Array {
    const out = new Float32Array(Math.max(0, to - from));
    let pos = this.base;
    for (const seg of this.parts) {
      const a = Math.max(from, pos);
      const b = Math.min(to, pos + seg.length);
      if (b > a) out.set(seg.subarray(a - pos, b - pos), a - from);
      pos += seg.length;
      if (pos >= to) break;
    }
    return out;
  }

  /** Forgets every part that ends before `sample`. */
  dropBefore(sample: number): void {
    while (this.parts.length > 0 && this.base + this.parts[0]!.length <= sample) {
      this.base += this.parts[0]!.length;
      this.parts.shift();
    }
  }
}
