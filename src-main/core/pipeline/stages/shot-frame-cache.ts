import type { ShotFrames } from '../../tensors/shot-chunks';

/**
 * Decoded shots kept between the analysis stage and the upload stage, bounded in bytes (LRU). The
 * catalog never holds tensors: after a restart, or for shots evicted here, the upload stage decodes
 * the shot again from the file, with the same decode, so the bytes are the same.
 */
export class ShotFrameCache {
  private readonly entries = new Map<string, { frames: ShotFrames; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  static key(shotId: number, startS: number, endS: number, profileId: string): string {
    return `${shotId}|${startS}|${endS}|${profileId}`;
  }

  get(key: string): ShotFrames | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.frames;
  }

  set(key: string, frames: ShotFrames): void {
    const bytes = frames.frames.reduce((s, f) => s + f.byteLength, 0) + frames.audio.byteLength;
    if (bytes > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { frames, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
