import { FrameSpool } from './frame-spool';

/** One second of 16 kHz mono per block. */
const BLOCK_SAMPLES = 16_000;

/**
 * A clip's mono PCM kept whole until its shots are known, as in the clip's one decode: in blocks of
 * BLOCK_SAMPLES in a FrameSpool, so an hour-long interview (230 MB of float32 at 16 kHz) spills to
 * a temporary file past `memoryBytes` instead of staying in memory. `take` cuts any range out.
 */
export class AudioSpool {
  private readonly blocks: FrameSpool;
  private pending = new Float32Array(BLOCK_SAMPLES);
  private filled = 0;
  total = 0;

  constructor(memoryBytes: number) {
    this.blocks = new FrameSpool(BLOCK_SAMPLES * 4, memoryBytes);
  }

  push(samples: Float32Array): void {
    let off = 0;
    while (off < samples.length) {
      const take = Math.min(BLOCK_SAMPLES - this.filled, samples.length - off);
      this.pending.set(samples.subarray(off, off + take), this.filled);
      this.filled += take;
      off += take;
      if (this.filled === BLOCK_SAMPLES) {
        this.blocks.push(new Uint8Array(this.pending.buffer));
        this.pending = new Float32Array(BLOCK_SAMPLES);
        this.filled = 0;
      }
    }
    this.total += samples.length;
  }

  /** Samples [from, to), zeros where the stream has none. */
  take(from: number, to: number): Float32Array {
    const out = new Float32Array(Math.max(0, to - from));
    const end = Math.min(to, this.total);
    for (let b = Math.floor(Math.max(0, from) / BLOCK_SAMPLES); b * BLOCK_SAMPLES < end; b++) {
      const block = b < this.blocks.length ? this.blockAt(b) : this.pending;
      const base = b * BLOCK_SAMPLES;
      const a = Math.max(from, base);
      const z = Math.min(end, base + BLOCK_SAMPLES);
      out.set(block.subarray(a - base, z - base), a - from);
    }
    return out;
  }

  close(): void {
    this.blocks.close();
    this.pending = new Float32Array(BLOCK_SAMPLES);
    this.filled = 0;
    this.total = 0;
  }

  private blockAt(b: number): Float32Array {
    const bytes = this.blocks.get(b);
    // FrameSpool hands back whole buffers (offset 0), so the float view is aligned.
    return new Float32Array(bytes.buffer, bytes.byteOffset, BLOCK_SAMPLES);
  }
}
