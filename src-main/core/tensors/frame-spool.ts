import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Equal-sized frames kept in arrival order until their shots are known: in memory up to
 * `memoryBytes`, the rest appended to a temporary file (a long clip's tensor frames, 150 KB
 * each at 2 fps, would otherwise grow without bound while its one decode runs). `close()` removes
 * the file.
 */
export class FrameSpool {
  private readonly inMemory: Uint8Array[] = [];
  private fd: number | null = null;
  private file: string | null = null;
  private spilled = 0;

  constructor(
    private readonly frameBytes: number,
    private readonly memoryBytes: number,
  ) {}

  get length(): number {
    return this.inMemory.length + this.spilled;
  }

  push(frame: Uint8Array): void {
    if (frame.byteLength !== this.frameBytes) throw new RangeError(`frame has ${frame.byteLength} bytes, expected ${this.frameBytes}`);
    if (this.spilled === 0 && (this.inMemory.length + 1) * this.frameBytes <= this.memoryBytes) {
      this.inMemory.push(frame);
      return;
    }
    if (this.fd === null) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-frames-'));
      this.file = path.join(dir, 'frames.raw');
      this.fd = fs.openSync(this.file, 'w+');
    }
    fs.writeSync(this.fd, frame, 0, frame.byteLength, this.spilled * this.frameBytes);
    this.spilled++;
  }

  /** Frame i (a new buffer when it comes from the file). */
  get(i: number): Uint8Array {
    if (i < 0 || i >= this.length) throw new RangeError(`frame ${i} of ${this.length}`);
    if (i < this.inMemory.length) return this.inMemory[i]!;
    const out = new Uint8Array(this.frameBytes);
    fs.readSync(this.fd!, out, 0, this.frameBytes, (i - this.inMemory.length) * this.frameBytes);
    return out;
  }

  close(): void {
    this.inMemory.length = 0;
    if (this.fd !== null) fs.closeSync(this.fd);
    if (this.file) fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
    this.fd = null;
    this.file = null;
    this.spilled = 0;
  }
}
