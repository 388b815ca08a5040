import fsp from 'node:fs/promises';

/**
 * Why a VFR proxy's last picture needs this: the bundled ffmpeg 4.1 gives an encoded packet no
 * duration of its own, and its muxer makes one up from the encoder's time base only when that is
 * a frame rate (at most 1000 a second: mux.c's ff_compute_frame_duration). A VFR proxy is encoded
 * on its source's clock (`-enc_time_base -1`, 1/90000 for a phone), so its last packet has none:
 * the MP4 writes the last sample with duration 0, the edit list (the sum of the durations) ends
 * where that picture starts, and decoders and players leave it out (89 of the phone clip's 90).
 * Constant-rate proxies are encoded on 1/rate and get a duration of one frame. A VFR picture
 * copied into its proxy (proxies/proxy-picture.ts) comes from 4.1's MP4 demuxer without a
 * duration too and is written with 1 tick: the same last picture left out.
 *
 * `closeLastSample` gives the video track's last sample of such a file the duration of the one
 * before it (what the viewer assumes of a last picture, picture-grid.ts `timeInPicture`) and
 * lengthens the track's, its edit's and the movie's durations by as much, in place: the same
 * bytes count, no sample moved. A file whose last sample has a duration is left as it is.
 */

interface Box {
  type: string;
  /** Offsets in the buffer: where the box starts, where its content starts, where it ends. */
  start: number;
  body: number;
  end: number;
}

function boxes(buf: Buffer, from: number, to: number): Box[] {
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

const child = (buf: Buffer, parent: Box, type: string) => boxes(buf, parent.body, parent.end).find((b) => b.type === type) ?? null;

function path(buf: Buffer, parent: Box, ...types: string[]): Box | null {
  let at: Box | null = parent;
  for (const t of types) at = at ? child(buf, at, t) : null;
  return at;
}

/** A full box's duration field: after version/flags and the fields before it (4 or 8 bytes each by version). */
function durationField(buf: Buffer, b: Box, before: { v0: number; v1: number }): { at: number; wide: boolean } {
  const wide = buf.readUInt8(b.body) === 1;
  return { at: b.body + 4 + (wide ? before.v1 : before.v0), wide };
}
const readField = (buf: Buffer, f: { at: number; wide: boolean }) => (f.wide ? Number(buf.readBigUInt64BE(f.at)) : buf.readUInt32BE(f.at));
function addToField(buf: Buffer, f: { at: number; wide: boolean }, add: number): void {
  const v = readField(buf, f) + add;
  if (f.wide) buf.writeBigUInt64BE(BigInt(v), f.at);
  else buf.writeUInt32BE(Math.min(v, 0xffffffff), f.at);
}

/** Patches a moov box's content in `buf` (see above). True when a last sample was given its duration. */
function closeLastSampleIn(buf: Buffer, moov: Box): boolean {
  const mvhd = child(buf, moov, 'mvhd');
  if (!mvhd) return false;
  const movieScale = buf.readUInt32BE(durationField(buf, mvhd, { v0: 12, v1: 20 }).at - 4);
  for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    const hdlr = path(buf, trak, 'mdia', 'hdlr');
    if (!hdlr || buf.toString('latin1', hdlr.body + 8, hdlr.body + 12) !== 'vide') continue;
    const stts = path(buf, trak, 'mdia', 'minf', 'stbl', 'stts');
    const mdhd = path(buf, trak, 'mdia', 'mdhd');
    const tkhd = child(buf, trak, 'tkhd');
    if (!stts || !mdhd || !tkhd) return false;
    const entries = buf.readUInt32BE(stts.body + 4);
    if (entries < 2 || stts.body + 8 + entries * 8 > stts.end) return false;
    const last = stts.body + 8 + (entries - 1) * 8;
    // Only a lone last sample without a duration (0, or the 1 tick 4.1 writes for a copied
    // packet without one: never a picture's on a clock ffmpeg's MP4 muxer keeps >= 10000 a second)
    // and shorter than the one before: anything else was written with durations.
    const lastDuration = buf.readUInt32BE(last + 4);
    const before = buf.readUInt32BE(last - 4);
    if (buf.readUInt32BE(last) !== 1 || lastDuration > 1 || before <= lastDuration) return false;
    const delta = before - lastDuration;
    buf.writeUInt32BE(before, last + 4);
    const mdhdDuration = durationField(buf, mdhd, { v0: 12, v1: 20 });
    const mediaScale = buf.readUInt32BE(mdhdDuration.at - 4);
    addToField(buf, mdhdDuration, delta);
    // On the movie's clock, rounded up: the edit must reach the end of the picture.
    const movieDelta = Math.ceil((delta * movieScale) / mediaScale);
    const tkhdDuration = durationField(buf, tkhd, { v0: 16, v1: 24 });
    addToField(buf, tkhdDuration, movieDelta);
    const elst = path(buf, trak, 'edts', 'elst');
    if (elst) {
      // The edit that plays the media (an empty edit, media_time -1, only delays it): the last such.
      const wide = buf.readUInt8(elst.body) === 1;
      const n = buf.readUInt32BE(elst.body + 4);
      const size = wide ? 20 : 12;
      for (let i = n - 1; i >= 0; i--) {
        const e = elst.body + 8 + i * size;
        if (e + size > elst.end) break;
        const mediaTime = wide ? Number(buf.readBigInt64BE(e + 8)) : buf.readInt32BE(e + 4);
        if (mediaTime === -1) continue;
        addToField(buf, { at: e, wide }, movieDelta);
        break;
      }
    }
    const mvhdDuration = durationField(buf, mvhd, { v0: 12, v1: 20 });
    const trackEnd = readField(buf, tkhdDuration);
    if (readField(buf, mvhdDuration) < trackEnd) addToField(buf, mvhdDuration, trackEnd - readField(buf, mvhdDuration));
    return true;
  }
  return false;
}

/** Gives the last video sample of an MP4 written by ffmpeg its duration, in place (see above). True when it lacked one. */
export async function closeLastSample(file: string): Promise<boolean> {
  const fh = await fsp.open(file, 'r+');
  try {
    const size = (await fh.stat()).size;
    // Top-level boxes, read one header at a time (mdat is not read).
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
        if (!moov || !closeLastSampleIn(buf, moov)) return false;
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
