import { boxes, child, durationField, editsOf, isVideoTrack, movieClock, patchMoov, path, readField, type Box } from './boxes';

/**
 * Why a preview window needs this (proxies/range-streams.ts): its pictures are presented at the
 * clip's times, so the file's first picture starts late, and an MP4 says so with an empty edit
 * whose duration is on the movie's clock, which ffmpeg 4.1 keeps at 1000 a second (no option to
 * change it before 4.3) and rounds the delay down to: a window from the picture at 87900/90000 s
 * presented every picture 60 ticks (0.67 ms) early, and a VFR picture read as the one before it.
 *
 * `setMp4Start` puts the movie on the picture track's own clock (its media timescale: 90000 for a
 * phone, 24000 for 23.976...), every duration on the movie's clock rescaled to it (rounded up, so
 * no edit ends before its media), and the picture track's empty edit at `startS` exactly. Fields of
 * the same size, in place. False (nothing written) when the file has no such track, its start is
 * not delayed by an empty edit, or a duration would not fit its field.
 */
function setStartIn(buf: Buffer, moov: Box, startS: number): boolean {
  const mvhd = child(buf, moov, 'mvhd');
  if (!mvhd) return false;
  const { scale: oldScale, duration: mvhdDuration } = movieClock(buf, mvhd);
  const traks = boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak');
  const video = traks.find((t) => isVideoTrack(buf, t));
  const mdhd = video && path(buf, video, 'mdia', 'mdhd');
  if (!video || !mdhd || oldScale <= 0) return false;
  const scale = buf.readUInt32BE(durationField(buf, mdhd, { v0: 12, v1: 20 }).at - 4);
  const empty = path(buf, video, 'edts', 'elst');
  const delay = empty ? editsOf(buf, empty).find((e) => e.mediaTime === -1) : undefined;
  if (!delay || scale <= 0) return false;
  // Every field on the movie's clock, with its new value: checked whole before anything is written.
  const writes: { field: { at: number; wide: boolean }; value: number }[] = [];
  const rescale = (field: { at: number; wide: boolean }) => writes.push({ field, value: Math.ceil((readField(buf, field) * scale) / oldScale) });
  rescale(mvhdDuration);
  for (const trak of traks) {
    const tkhd = child(buf, trak, 'tkhd');
    if (tkhd) rescale(durationField(buf, tkhd, { v0: 16, v1: 24 }));
    const elst = path(buf, trak, 'edts', 'elst');
    for (const e of elst ? editsOf(buf, elst) : []) {
      if (e.duration.at === delay.duration.at) writes.push({ field: e.duration, value: Math.round(startS * scale) });
      else rescale(e.duration);
    }
  }
  if (writes.some((w) => !w.field.wide && w.value > 0xffffffff)) return false;
  buf.writeUInt32BE(scale, mvhdDuration.at - 4);
  for (const w of writes) {
    if (w.field.wide) buf.writeBigUInt64BE(BigInt(w.value), w.field.at);
    else buf.writeUInt32BE(w.value, w.field.at);
  }
  return true;
}

/** Presents an MP4's first picture at `startS` exactly (see above), in place. True when it did. */
export function setMp4Start(file: string, startS: number): Promise<boolean> {
  return patchMoov(file, (buf, moov) => setStartIn(buf, moov, startS));
}
