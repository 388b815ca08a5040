/**
 * Issue 37's preview stream: how soon the first picture of a clip without its proxy can be shown,
 * and how long play then waits for the windows after it. A 1080p ProRes 422 HQ `.mov` and a 1080p
 * DNxHR HQ `.mxf` (24 s, with sound) are made from a sample clip; for each, side by side in this
 * run (alternating, so load drifts hit both), the preview streams (core/proxies/range-streams.ts,
 * the bundled ffmpeg) with windows as they were (one 20 s window, served once written) and as they
 * are (a 1 s head, then windows twice as long made ahead, stream-window.ts):
 * - first picture: from the request of the window at a playhead to its file served (the player
 *   shows its first picture a few tens of ms later: the e2e test prints that whole wait);
 * - play at 1x for the first 20 s: the time play waits at window ends (the next window not written
 *   yet), the viewer asking the next window when the one before has played out; with the windows
 *   kept at full size (540 lines) beside windows made smaller while their transcode runs slower
 *   than real time (stream-size.ts), alternating.
 * Last line: one JSON object (medians per clip; `first_picture_ratio` new / old, lower is better;
 * `play_waits_new_s` with sizes that follow the pace, `play_waits_full_size_s` without).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../src-shared/errors';
import { streamHeadAt, streamWindowAfter, type StreamWindow } from '../src-shared/stream-window';
import type { FrameRate } from '../src-shared/timecode';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { createRangeStreams, type StreamSource } from '../src-main/core/proxies/range-streams';

const VIDEOS = path.resolve(__dirname, '../../shared/media/videos');
const CACHE = path.resolve(__dirname, '../.tmp/bench-preview');
const RATE: FrameRate = { num: 25, den: 1 };
const SECONDS = 24;
const FRAMES = SECONDS * 25;
/** Playheads the first picture is asked at (frames): the start, and two seeks into the clip. */
const PLAYHEADS = [0, 262, 437];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);

const CLIPS = [
  { name: 'prores-hq-1080', ext: 'mov', video: ['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le'], audio: ['-c:a', 'pcm_s24le'] },
  { name: 'dnxhr-hq-1080', ext: 'mxf', video: ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', 'yuv422p'], audio: ['-c:a', 'pcm_s24le', '-ar', '48000'] },
];

function makeClip(c: (typeof CLIPS)[number]): string {
  const out = path.join(CACHE, `${c.name}.${c.ext}`);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(CACHE, { recursive: true });
  execFileSync(ffPath('ffmpeg'), [
    '-v', 'error', '-i', path.join(VIDEOS, 'intel_one-by-one-person-detection.mp4'), '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
    '-t', String(SECONDS), '-map', '0:v:0', '-map', '1:a:0', '-vf', 'fps=25,scale=1920:1080,setsar=1', ...c.video, ...c.audio, '-y', `${out}.part.${c.ext}`,
  ]);
  fs.renameSync(`${out}.part.${c.ext}`, out);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function withStreams<T>(file: string, headS: number, run: (open: (w: StreamWindow) => Promise<number>) => Promise<T>, fixedSize = true): Promise<T> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-bench-preview-'));
  const src: StreamSource = { path: file, rate: RATE, frames: FRAMES, audio: true, pictureTimes: null };
  const streams = createRangeStreams({ cacheDir, ffmpeg: () => ffPath('ffmpeg'), source: async () => src, headS, fixedSize });
  try {
    return await run(async (w) => {
      const t0 = performance.now();
      const f = await streams.open(1, w);
      if (f instanceof AppError) throw f;
      await f.handle.close();
      return (performance.now() - t0) / 1000;
    });
  } finally {
    await streams.dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Seconds from asking the window at each playhead to its file served, each in streams of its own (nothing made before). */
async function firstPictures(file: string, headS: number): Promise<number[]> {
  const waits: number[] = [];
  for (const p of PLAYHEADS) waits.push(await withStreams(file, headS, (open) => open(streamHeadAt(p, RATE, FRAMES, headS))));
  return waits;
}

/** Play at 1x from frame 0 for 20 s: the seconds waited before the first picture and at window ends after it. */
function playOn(file: string, headS: number, fixedSize = true): Promise<{ first: number; stalls: number }> {
  return withStreams(file, headS, async (open) => {
    let w: StreamWindow | null = streamHeadAt(0, RATE, FRAMES, headS);
    const first = await open(w);
    let stalls = 0;
    let played = 0;
    while (w && played < 20) {
      const seconds = ((w.to - w.from) * RATE.den) / RATE.num;
      await sleep(seconds * 1000);
      played += seconds;
      w = streamWindowAfter(w, RATE, FRAMES, headS);
      if (w && played < 20) stalls += await open(w);
    }
    return { first, stalls };
  }, fixedSize);
}

async function main(): Promise<void> {
  const result: Record<string, number | string> = { ffmpeg: ffPath('ffmpeg'), load: os.loadavg()[0]!.toFixed(2) };
  for (const c of CLIPS) {
    const file = makeClip(c);
    const old: number[] = [];
    const now: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      old.push(...(await firstPictures(file, 20)));
      now.push(...(await firstPictures(file, 1)));
    }
    const playOld = await playOn(file, 20);
    const playFull = await playOn(file, 1);
    const playNew = await playOn(file, 1, false);
    const o = median(old);
    const n = median(now);
    console.log(`${c.name}: first picture, 20 s window ${o.toFixed(2)} s (${old.map((x) => x.toFixed(2)).join(' ')}), 1 s head ${n.toFixed(2)} s (${now.map((x) => x.toFixed(2)).join(' ')}), ratio ${(n / o).toFixed(3)}`);
    console.log(`${c.name}: play 20 s from 0: 20 s window first ${playOld.first.toFixed(2)} s, then waits ${playOld.stalls.toFixed(2)} s; head and ramp at full size first ${playFull.first.toFixed(2)} s, then waits ${playFull.stalls.toFixed(2)} s; sizes following the pace first ${playNew.first.toFixed(2)} s, then waits ${playNew.stalls.toFixed(2)} s`);
    Object.assign(result, {
      [`${c.name}_first_old_s`]: +o.toFixed(3),
      [`${c.name}_first_new_s`]: +n.toFixed(3),
      [`${c.name}_first_picture_ratio`]: +(n / o).toFixed(3),
      [`${c.name}_play_waits_full_size_s`]: +playFull.stalls.toFixed(3),
      [`${c.name}_play_waits_new_s`]: +playNew.stalls.toFixed(3),
    });
  }
  console.log(JSON.stringify(result));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
