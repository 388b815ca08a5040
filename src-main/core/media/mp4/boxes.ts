import fsp from 'node:fs/promises';

/**
 * Reading and patching an MP4's index in place (ISO BMFF boxes): what last-sample.ts and
 * start.ts change in the files ffmpeg 4.1 writes, fields of the same size, no sample moved.
 */

export interface Box {
  type: string;
  /** Offsets in the buffer: where the box starts, where its content starts, where it ends. */
  start: number;
  body: number;
  end: number;
}

export function boxes(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) size = to - at;
    if (size < body - at || at + size > to) break;
    out.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return out;
}

export const child = (buf: Buffer, parent: Box, type: string) => boxes(buf, parent.body, parent.end).find((b) => b.type === type) ?? null;

export function path(buf: Buffer, parent: Box, ...types: string[]): Box | null {
  let at: Box | null = parent;
  for (const t of types) at = at ? child(buf, at, t) : null;
  return at;
}

/** A full box's duration field: after version/flags and the fields before it (4 or 8 bytes each by version). */
export function durationField(buf: Buffer, b: Box, before: { v0: number; v1: number }): { at: number; wide: boolean } {
  const wide = buf.readUInt8(b.body) === 1;
  return { at: b.body + 4 + (wide ? before.v1 : before.v0), wide };
}
export const readField = (buf: Buffer, f: { at: number; wide: boolean }) => (f.wide ? Number(buf.readBigUInt64BE(f.at)) : buf.readUInt32BE(f.at));
export function addToField(buf: Buffer, f: { at: number; wide: boolean }, add: number): void {
  const v = readField(buf, f) + add;
  if (f.wide) buf.writeBigUInt64BE(BigInt(v), f.at);
  else buf.writeUInt32BE(Math.min(v, 0xffffffff), f.at);
}


/** The movie's clock (ticks a second) and its duration field, from its `mvhd`. */
export function movieClock(buf: Buffer, mvhd: Box): { scale: number; duration: { at: number; wide: boolean } } {
  const duration = durationField(buf, mvhd, { v0: 12, v1: 20 });
  return { scale: buf.readUInt32BE(duration.at - 4), duration };
}

/** Whether a track is the picture's (its handler `vide`). */
export function isVideoTrack(buf: Buffer, trak: Box): boolean {
  const hdlr = path(buf, trak, 'mdia', 'hdlr');
  return hdlr !== null && buf.toString('latin1', hdlr.body + 8, hdlr.body + 12) === 'vide';
}

/**
 * Reads the file's top-level `moov` (one header at a time: mdat is not read), lets `patch` change
 * it in memory and writes it back in place when `patch` says it did. False when the file has no
 * readable moov or nothing was changed.
 */
export async function patchMoov(file: string, patch: (buf: Buffer, moov: Box) => boolean): Promise<boolean> {
  const fh = await fsp.open(file, 'r+');
  try {
    const size = (await fh.stat()).size;
    let at = 0;
    const head = Buffer.alloc(16);
    while (at + 8 <= size) {
      await fh.read(head, 0, 16, at);
      let boxSize = head.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(head.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - at;
      if (boxSize < 8 || at + boxSize > size) return false;
      if (head.toString('latin1', 4, 8) === 'moov') {
        const buf = Buffer.alloc(boxSize);
        await fh.read(buf, 0, boxSize, at);
        const moov = boxes(buf, 0, boxSize)[0];
        if (!moov || !patch(buf, moov)) return false;
        await fh.write(buf, 0, boxSize, at);
        return true;
      }
      at += boxSize;
    }
    return false;
  } finally {
    await fh.close();
  }
}

/** An edit of an `elst`: its duration field (on the movie's clock) and its media time (-1: an empty edit, which only delays). */
export interface Edit {
  duration: { at: number; wide: boolean };
  mediaTime: number;
}

export function editsOf(buf: Buffer, elst: Box): Edit[] {
  const wide = buf.readUInt8(elst.body) === 1;
  const n = buf.readUInt32BE(elst.body + 4);
  const size = wide ? 20 : 12;
  const out: Edit[] = [];
  for (let i = 0; i < n; i++) {
    const e = elst.body + 8 + i * size;
    if (e + size > elst.end) break;
    out.push({ duration: { at: e, wide }, mediaTime: wide ? Number(buf.readBigInt64BE(e + 8)) : buf.readInt32BE(e + 4) });
  }
  return out;
}
