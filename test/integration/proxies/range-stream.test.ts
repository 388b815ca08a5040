import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { createRangeStreams, STREAMS_DIR, type RangeStreams } from '../../../src-main/core/proxies/range-streams';
import type { OpenedFile } from '../../../src-main/core/util/open-verified';
import { burntInNumbers as burntIn } from '../../helpers/footage/burnt-in';
import { makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { tempDir } from '../../helpers/paths';
import { processesUsing } from '../../helpers/app/processes';
import { x264Options } from '../../helpers/footage/x264-options';

/**
 * Issue 37's preview stream on real ffmpeg: a ProRes 422 HQ clip (no proxy yet) is transcoded one
 * window at a time; each window holds the clip's frames of that range at the clip's own times
 * (ffprobe: first pts = the window's start, one packet a frame; the burnt-in frame numbers read
 * back in order); the window play runs on into (reverse play back into) is made ahead once the one
 * served is written, and both are killed and removed when the viewer stops or moves elsewhere. A VFR
 * phone clip's windows keep its pictures' own times, to the microsecond, and show their last picture.
 */
const CLIP_ID = 7;
const tmp = tempDir('rs-range-stream-');
let clip: PlaybackClip;
let vfr: PlaybackClip;
let streams: RangeStreams;
const dir = () => path.join(tmp.dir, STREAMS_DIR);
const filesHere = () => (fs.existsSync(dir()) ? fs.readdirSync(dir()) : []);

/** ffmpeg processes writing under this test's cache folder. */
const ffmpegsHere = () => processesUsing(dir());

function videoPts(file: string): number[] {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file]).toString();
  return out.trim().split('\n').map(Number).sort((a, b) => a - b);
}

/** The pictures a player decodes from a file, the edit list applied (ffmpeg -vsync passthrough counts them). */
function decodedPictures(file: string): number {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file]).toString();
  return Number(out.trim());
}


beforeAll(async () => {
  [clip, vfr] = await makePlaybackFootage(undefined, ['prores-hq', 'h264-vfr-phone']) as [PlaybackClip, PlaybackClip];
  streams = createRangeStreams({
    cacheDir: tmp.dir,
    ffmpeg: () => ffPath('ffmpeg'),
    // What the catalog hands over for a clip whose stream plays (proxy-handlers.ts createStreamSource).
    source: async (id) => (id === CLIP_ID ? { path: clip.file, rate: clip.rate, frames: clip.frames, audio: clip.audio !== null, pictureTimes: null } : new AppError('not_found', `clip ${id}`)),
  });
}, 120_000);

afterAll(async () => {
  await streams?.dispose();
  tmp.cleanup();
});

async function opened(from: number, to: number): Promise<OpenedFile> {
  const f = await streams.open(CLIP_ID, { from, to });
  if (f instanceof AppError) throw f;
  await f.handle.close();
  return f;
}

describe('the preview stream of a clip whose proxy is not made yet', () => {
  it('holds the window\'s frames of the clip at the clip\'s times, frame for frame, the next one made ahead', async () => {
    expect(clip.probe.codec).toBe('prores');
    const rate = clip.rate.num / clip.rate.den;
    // The 1 s head at frame 24 (24 frames at 23.976), then the window play runs on into: twice as long, cut at the clip's end (72).
    let before: string | null = null;
    for (const [from, to] of [[24, 48], [48, 72]] as const) {
      const f = await opened(from, to);
      const pts = videoPts(f.real);
      expect(pts.length, `window ${from}`).toBe(to - from);
      // First pts = the window's start, each frame at its own time: exactly (ffprobe prints microseconds), not on the movie's millisecond clock.
      pts.forEach((t, i) => expect(Math.abs(t - (from + i) / rate), `frame ${from + i} at ${t}`).toBeLessThan(1.5e-6));
      expect(await burntIn(f.real)).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
      // The proxy's encoder settings, trellis off as ultrafast has it (proxy-encoder.ts).
      expect(x264Options(f.real).get('trellis')).toBe('0');
      if (to < 72) {
        // Written: the next window is being made ahead (its ffmpeg runs, its file is named by its frames).
        expect(ffmpegsHere().length + filesHere().filter((n) => n.startsWith(`${CLIP_ID}-${to}-72-`)).length).toBeGreaterThan(0);
      } else {
        // Play ran on into it: served from what was made ahead, the one before removed, nothing after the clip's end.
        expect(filesHere()).toEqual([path.basename(f.real)]);
        expect(before).not.toBeNull();
        expect(ffmpegsHere()).toEqual([]);
      }
      before = f.real;
    }
  }, 120_000);

  it('makes the window before ahead instead of the one after while reverse play runs, still one window ahead at most', async () => {
    // Standing in the head 24-47: the window after it (48-71) is made ahead.
    const head = await opened(24, 48);
    await expect.poll(() => filesHere().some((n) => n.startsWith(`${CLIP_ID}-48-72-`)), { timeout: 10_000 }).toBe(true);
    // J: the viewer says it goes back; the one after goes, the one before (0-23: twice as long, cut at the start) is made.
    await streams.toward(CLIP_ID, { from: 24, to: 48 }, 'back');
    expect(filesHere().filter((n) => !/^7-(24-48|0-24)-/.test(n))).toEqual([]);
    expect(ffmpegsHere().length).toBeLessThanOrEqual(1);
    await expect.poll(() => filesHere().some((n) => n.startsWith(`${CLIP_ID}-0-24-`)), { timeout: 10_000 }).toBe(true);
    const madeAhead = filesHere().find((n) => n.startsWith(`${CLIP_ID}-0-24-`))!;
    // Reverse play runs back into it: served from what was made ahead (the same file), the one left removed; nothing before the clip's start.
    const before = await opened(0, 24);
    expect(path.basename(before.real)).toBe(madeAhead);
    expect(filesHere()).toEqual([madeAhead]);
    expect(ffmpegsHere()).toEqual([]);
    expect(await burntIn(before.real)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    // L again: the window after it is made ahead once more, the way the playhead now goes.
    await streams.toward(CLIP_ID, { from: 0, to: 24 }, 'on');
    await expect.poll(() => filesHere().some((n) => n.startsWith(`${CLIP_ID}-24-72-`)), { timeout: 10_000 }).toBe(true);
    expect(path.basename(head.real)).not.toBe(madeAhead);
    await streams.stop(CLIP_ID);
    expect(filesHere()).toEqual([]);
  }, 60_000);

  it('keeps a VFR clip\'s presentation times: picture k of a window is picture k of the original, at its own time, the last one shown', async () => {
    const times = vfr.ptsSeconds!;
    const r30 = { num: 30, den: 1 };
    const phone = createRangeStreams({
      cacheDir: tmp.dir,
      ffmpeg: () => ffPath('ffmpeg'),
      source: async () => ({ path: vfr.file, rate: r30, frames: 113, audio: true, pictureTimes: times }),
    });
    try {
      // Grid 30-59 (1.000-1.967 s) shows pictures 29-54; grid 60-119 (the window after, cut at the clip's end) shows 54-89.
      for (const [from, to, first, last] of [[30, 60, 29, 54], [60, 113, 54, 89]] as const) {
        const f = await phone.open(CLIP_ID, { from, to });
        if (f instanceof AppError) throw f;
        await f.handle.close();
        const pts = videoPts(f.real);
        const want = times.slice(first, last + 1);
        expect(pts.length, `window ${from}`).toBe(want.length);
        // ffprobe prints microseconds: each picture at its original time, not rounded to the average rate or the movie's millisecond.
        pts.forEach((t, i) => expect(Math.abs(t - want[i]!), `picture ${first + i} at ${t}, not ${want[i]}`).toBeLessThan(1.5e-6));
        expect(await burntIn(f.real)).toEqual(Array.from({ length: want.length }, (_, i) => first + i));
        // Every picture decodes, the last one too (its sample given a duration).
        expect(decodedPictures(f.real), `window ${from}`).toBe(want.length);
      }
    } finally {
      await phone.stop(CLIP_ID);
    }
    expect(filesHere()).toEqual([]);
  }, 60_000);

  it('makes its windows at the size it is at: the proxy\'s height, or smaller while the machine cannot keep up (stream-size.ts)', async () => {
    // A 720p ProRes clip (the test clip is 270 lines: every size is its full one).
    const hd = path.join(tmp.dir, 'hd.mov');
    execFileSync(footageFfmpeg(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=24', '-frames:v', '48', '-c:v', 'prores_ks', '-profile:v', '0', '-y', hd]);
    const heights: number[] = [];
    for (const step of [0, 1, 2]) {
      const sized = createRangeStreams({ cacheDir: tmp.dir, ffmpeg: () => ffPath('ffmpeg'), size: { step }, source: async () => ({ path: hd, rate: { num: 24, den: 1 }, frames: 48, audio: false, pictureTimes: null }) });
      try {
        const f = await sized.open(CLIP_ID, { from: 0, to: 24 });
        if (f instanceof AppError) throw f;
        await f.handle.close();
        heights.push(Number(execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=height', '-of', 'csv=p=0', f.real]).toString().trim()));
      } finally {
        await sized.stop(CLIP_ID);
      }
    }
    expect(heights).toEqual([540, 360, 270]);
    fs.rmSync(hd);
  }, 60_000);

  it('refuses frames that are not a window main makes', async () => {
    for (const w of [{ from: 30, to: 54 }, { from: 24, to: 60 }, { from: 48, to: 96 }]) {
      const r = await streams.open(CLIP_ID, w);
      expect(r).toBeInstanceOf(AppError);
      expect((r as AppError).kind).toBe('invalid');
    }
  });

  it('keeps no file but the window served and the one after it when requests come faster than ffmpeg ends (steps, a drag)', async () => {
    const asked = [[0, 24], [24, 48], [48, 72], [0, 24], [24, 48], [48, 72], [24, 48]] as const;
    const answers = await Promise.all(asked.map(([from, to]) => streams.open(CLIP_ID, { from, to })));
    const served = answers.flatMap((a, i) => (a instanceof AppError ? [] : [asked[i]!]));
    for (const a of answers) if (!(a instanceof AppError)) await a.handle.close();
    // Every other request was answered "cancelled" (replaced), none failed otherwise.
    for (const a of answers) if (a instanceof AppError) expect(a.kind).toBe('cancelled');
    expect(served.length).toBeGreaterThan(0);
    const last = served.at(-1)!;
    const kept = [`${last[0]}-${last[1]}`, ...(last[1] < 72 ? [`${last[1]}-72`] : [])];
    expect(filesHere().filter((n) => !kept.some((w) => n.startsWith(`${CLIP_ID}-${w}-`)))).toEqual([]);
    await streams.stop(CLIP_ID);
    expect(filesHere()).toEqual([]);
    expect(ffmpegsHere()).toEqual([]);
  }, 60_000);

  it('serves the window asked last when the clip\'s checks answer an earlier request after a later one', async () => {
    // Its own streams: the first look at the clip (the request for frames 0-23) answers after the second (24-47).
    const delays = [300, 0];
    const late = createRangeStreams({
      cacheDir: tmp.dir,
      ffmpeg: () => ffPath('ffmpeg'),
      source: async () => {
        await new Promise((r) => setTimeout(r, delays.shift() ?? 0));
        return { path: clip.file, rate: clip.rate, frames: clip.frames, audio: clip.audio !== null, pictureTimes: null };
      },
    });
    try {
      const [first, second] = await Promise.all([late.open(CLIP_ID, { from: 0, to: 24 }), late.open(CLIP_ID, { from: 24, to: 48 })]);
      expect(first).toBeInstanceOf(AppError);
      expect((first as AppError).kind).toBe('cancelled');
      expect(second).not.toBeInstanceOf(AppError);
      await (second as OpenedFile).handle.close();
      expect(path.basename((second as OpenedFile).real)).toMatch(new RegExp(`^${CLIP_ID}-24-48-`));
      expect(filesHere().filter((n) => !/^7-(24-48|48-72)-/.test(n))).toEqual([]);
    } finally {
      await late.stop(CLIP_ID);
    }
    expect(filesHere()).toEqual([]);
  }, 60_000);

  it('is killed when the viewer closes, mid-transcode or done, with the window made ahead, and leaves no file', async () => {
    await opened(0, 24);
    expect(filesHere().length).toBeGreaterThanOrEqual(1);
    await streams.stop(CLIP_ID);
    expect(filesHere()).toEqual([]);
    expect(ffmpegsHere()).toEqual([]);
    // A seek elsewhere: the window served goes, only the new one (and the one after it, being made) is left.
    await opened(48, 72);
    const head = await opened(0, 24);
    expect(path.basename(head.real)).toMatch(new RegExp(`^${CLIP_ID}-0-24-`));
    expect(filesHere().filter((n) => !/^7-(0-24|24-72)-/.test(n))).toEqual([]);
    await streams.stop(CLIP_ID);
    // Mid-transcode: the request in flight is answered "cancelled", the ffmpeg is gone, nothing left.
    const pending = streams.open(CLIP_ID, { from: 24, to: 48 });
    await new Promise((r) => setTimeout(r, 50));
    expect(ffmpegsHere().length).toBe(1);
    await streams.stop(CLIP_ID);
    const r = await pending;
    expect(r).toBeInstanceOf(AppError);
    expect((r as AppError).kind).toBe('cancelled');
    expect(ffmpegsHere()).toEqual([]);
    expect(filesHere()).toEqual([]);
  }, 60_000);
});
