import { addToField, boxes, child, durationField, editsOf, isVideoTrack, movieClock, patchMoov, path, readField, type Box } from './boxes';

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

/** Patches a moov box's content in `buf` (see above). True when a last sample was given its duration. */
function closeLastSampleIn(buf: Buffer, moov: Box): boolean {
  const mvhd = child(buf, moov, 'mvhd');
  if (!mvhd) return false;
  const { scale: movieScale, duration: mvhdDuration } = movieClock(buf, mvhd);
  for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    if (!isVideoTrack(buf, trak)) continue;
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
    // The edit that plays the media (an empty edit, media_time -1, only delays it): the last such.
    const playing = elst ? editsOf(buf, elst).filter((e) => e.mediaTime !== -1).at(-1) : undefined;
    if (playing) addToField(buf, playing.duration, movieDelta);
    const trackEnd = readField(buf, tkhdDuration);
    if (readField(buf, mvhdDuration) < trackEnd) addToField(buf, mvhdDuration, trackEnd - readField(buf, mvhdDuration));
    return true;
  }
  return false;
}

/** Gives the last video sample of an MP4 written by ffmpeg its duration, in place (see above). True when it lacked one. */
export function closeLastSample(file: string): Promise<boolean> {
  return patchMoov(file, closeLastSampleIn);
}
