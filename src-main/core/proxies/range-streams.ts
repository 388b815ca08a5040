import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { isStreamWindow, streamWindowAfter, streamWindowBefore, type StreamWindow } from '../../../src-shared/stream-window';
import type { FrameRate } from '../../../src-shared/timecode';
import { closeLastSample } from '../media/mp4/last-sample';
import { setMp4Start } from '../media/mp4/start';
import { killChild, spawnTool, toolStartFailure } from '../media/run-process';
import { openUnder, type OpenedFile } from '../util/open-verified';
import { rangeStreamArgs, windowPictures } from './range-stream-args';
import { FULL_SIZE, nextStreamSize, streamHeight, type StreamSize } from './stream-size';

/** What a clip's preview stream is made from: its checked original, its rate and length, its sound. */
export interface StreamSource {
  path: string;
  rate: FrameRate;
  /** Frames in the clip (null: unknown, the window is cut at its full length). */
  frames: number | null;
  audio: boolean;
  /** A conformed (VFR) clip's presentation times (s), which its windows keep; null for a clip counted at its own rate. */
  pictureTimes: readonly number[] | null;
}

/** Which way the viewer's playhead goes: on (play, or standing), back (reverse play). */
export type StreamToward = 'on' | 'back';

export interface RangeStreams {
  /** The window of the clip, transcoded if it is not yet (waits until it is written); the one play runs on (or back) into is then made ahead. */
  open(clipId: number, window: StreamWindow): Promise<OpenedFile | AppError>;
  /**
   * The viewer plays `window` of the clip going `toward`: the window made ahead is the one after it
   * or, in reverse play, the one before it (the other is ended: still one window ahead at most).
   */
  toward(clipId: number, window: StreamWindow, toward: StreamToward): Promise<void>;
  /** The viewer closed or plays something else: the clip's stream is killed and its files removed. */
  stop(clipId: number): Promise<void>;
  /** The catalog closes: whatever stream runs is killed, the folder emptied. */
  dispose(): Promise<void>;
}

interface Job {
  clipId: number;
  window: StreamWindow;
  /** What it is made from. */
  src: StreamSource;
  /** Under the cache folder. */
  rel: string;
  child: ChildProcess;
  /** Stopped by us (ffmpeg answers SIGTERM by finishing with exit code 255, not by the signal). */
  killed: boolean;
  /** Written whole and finished (done resolved with null). */
  written: boolean;
  /** Null once the window is written whole; the reason otherwise (killed, ffmpeg failed). */
  done: Promise<AppError | null>;
}

/** Where the windows are written, under the cache folder (emptied at start: nothing in it outlives a run). */
export const STREAMS_DIR = 'streams';

/**
 * The preview streams of issue 37: while a clip whose original the player cannot decode has no
 * proxy yet, the viewer plays the window under its playhead (stream-window.ts: a short head first,
 * so the first picture comes quickly), transcoded on demand by the bundled ffmpeg
 * (range-stream-args.ts) into a temporary MP4 under the cache folder and served by the same media
 * route as proxies (opened under the cache folder, media-resolver.ts). Bounded: the window served
 * and, once it is written, the one the playhead goes into next (the one after it, twice as long;
 * in reverse play, which the viewer says with `toward`, the one before it), made ahead so that
 * playing on or back does not wait for it; never more, so the transcode never runs more than a
 * window ahead of the playhead. Asking that one makes it the window served; asking any other (the
 * editor sought away, or opened another clip) kills both and removes their files, and so does the
 * viewer closing (`stop`). Each window's transcode is timed: one written slower than real time
 * makes the next ones smaller, one written well ahead of it brings the size back up (stream-size.ts).
 */
export function createRangeStreams(o: {
  cacheDir: string;
  ffmpeg: () => string;
  source: (clipId: number) => Promise<StreamSource | AppError>;
  /** Head length in seconds (stream-window.ts; the viewer asks on the same grid): only tests change it. */
  headS?: number;
  /** The size windows start at (stream-size.ts): only tests change it. */
  size?: StreamSize;
  /** Windows stay at their first size whatever the pace: only bench:preview's side-by-side of the full size alone sets it. */
  fixedSize?: boolean;
}): RangeStreams {
  const dir = path.join(o.cacheDir, STREAMS_DIR);
  emptyFolder(dir);
  /** The window served, and the one made ahead of it (null until the served one is written). */
  let current: Job | null = null;
  let ahead: Job | null = null;
  /** Requests numbered as they arrive, and the number of the last one that started or promoted a window. */
  let asked = 0;
  let changedBy = 0;
  /** Which way the viewer goes (`toward`): which window is made ahead. */
  let going: StreamToward = 'on';
  /** The height of the next window started: the machine's pace, so it outlives a clip's stream. */
  let size: StreamSize = o.size ?? FULL_SIZE;

  async function end(job: Job): Promise<void> {
    if (current === job) current = null;
    if (ahead === job) ahead = null;
    job.killed = true;
    killChild(job.child);
    await job.done;
    await fs.promises.rm(path.join(o.cacheDir, job.rel), { force: true }).catch(() => undefined);
  }

  async function endAll(): Promise<void> {
    await Promise.all([current, ahead].filter((j): j is Job => j !== null).map(end));
  }

  const same = (job: Job | null, clipId: number, w: StreamWindow | null): job is Job => job !== null && w !== null && job.clipId === clipId && job.window.from === w.from && job.window.to === w.to;

  function start(clipId: number, window: StreamWindow, src: StreamSource): Job {
    const rel = path.posix.join(STREAMS_DIR, `${clipId}-${window.from}-${window.to}-${randomBytes(4).toString('hex')}.mp4`);
    const file = path.join(o.cacheDir, rel);
    fs.mkdirSync(dir, { recursive: true });
    const pictures = windowPictures(window, src.rate, src.pictureTimes);
    const height = streamHeight(size);
    const args = rangeStreamArgs({ input: src.path, rate: src.rate, pictures, vfr: src.pictureTimes !== null, height, audio: src.audio, outFile: file });
    const ffmpeg = o.ffmpeg();
    const began = performance.now();
    const child = spawnTool(ffmpeg, args);
    let stderr = '';
    child.stdout!.resume();
    child.stdin!.end();
    child.stderr!.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-4000);
    });
    const what = `the preview stream of clip ${clipId} for frames ${window.from}-${window.to - 1}`;
    const job: Job = { clipId, window, src, rel, child, killed: false, written: false, done: Promise.resolve(null) };
    const exited = new Promise<AppError | null>((resolve) => {
      child.once('error', (e: NodeJS.ErrnoException) => resolve(toolStartFailure(ffmpeg, e)));
      child.once('close', (code, signal) => {
        if (job.killed || signal) resolve(new AppError('cancelled', `${what} was stopped`));
        else if (code === 0) resolve(null);
        else resolve(new AppError('media', `ffmpeg could not make ${what}: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`));
      });
    });
    job.done = exited.then(async (failed) => {
      if (failed) return failed;
      // Its last picture given its length (a VFR window's has none) and its first presented at the clip's time exactly.
      await closeLastSample(file);
      await setMp4Start(file, pictures.startS);
      // The pace of this machine now: the clip's seconds written per second of transcode.
      if (!o.fixedSize) size = nextStreamSize(size, pictures.seconds / Math.max(1e-3, (performance.now() - began) / 1000));
      job.written = true;
      return null;
    }).catch((e: unknown) => new AppError('io', `${what} could not be finished`, { cause: e }));
    return job;
  }

  /** The window served is written: the one the playhead goes into next is started, unless one runs already or the clip ends there. */
  function makeAhead(job: Job): void {
    if (current !== job || ahead !== null || !job.written) return;
    const next = nextWindow(job);
    if (next) ahead = start(job.clipId, next, job.src);
  }

  /** The window the playhead goes into from `job`'s, the way it goes: null past the clip's start or end. */
  const nextWindow = (job: Job): StreamWindow | null =>
    going === 'back' ? streamWindowBefore(job.window, job.src.rate, o.headS) : streamWindowAfter(job.window, job.src.rate, job.src.frames, o.headS);

  return {
    async open(clipId, window) {
      // Its number before any wait: the clip's checks take their time, and a request that arrived
      // before another one which has already moved the stream must not move it back (the viewer
      // plays the later one's window; a step back would leave it a refused request and no picture).
      const n = ++asked;
      const stale = () => new AppError('cancelled', `the preview stream of clip ${clipId} for frames ${window.from}-${window.to - 1} was asked before another window`);
      const src = await o.source(clipId);
      if (src instanceof AppError) return src;
      if (!isStreamWindow(window, src.rate, src.frames, o.headS)) return new AppError('invalid', `frames ${window.from}-${window.to - 1} are not a preview window of clip ${clipId}`);
      let job: Job | null = same(current, clipId, window) ? current : null;
      if (!job && n < changedBy) return stale();
      if (!job && same(ahead, clipId, window)) {
        // The playhead ran on (or back) into the window made ahead: it is served now, the one before is done with.
        changedBy = n;
        const before = current;
        job = ahead;
        current = job;
        ahead = null;
        if (before) await end(before);
      }
      // The others end first. Requests come faster than ffmpeg ends (steps, a drag): one that started
      // this window meanwhile is joined, any other is ended in turn, and this one starts only once
      // nothing runs, with no wait between that look and the start (two starting at once would leave one's file).
      while (!job) {
        if (same(current, clipId, window)) job = current;
        else if (n < changedBy) return stale();
        else if (!current && !ahead) {
          changedBy = n;
          job = start(clipId, window, src);
          current = job;
        } else await endAll();
      }
      const failed = await job.done;
      if (failed) return failed;
      if (current !== job) return new AppError('cancelled', `the preview stream of clip ${clipId} for frames ${window.from}-${window.to - 1} was replaced`);
      makeAhead(job);
      return openUnder(o.cacheDir, job.rel);
    },
    async toward(clipId, window, toward) {
      going = toward;
      const job = current;
      // Not served yet (or no longer): open() makes the window ahead this way once it is written.
      if (!same(job, clipId, window) || !job.written) return;
      if (ahead) {
        if (same(ahead, clipId, nextWindow(job))) return;
        // Made ahead the other way: ended, and the one this way started in its place.
        await end(ahead);
      }
      makeAhead(job);
    },
    async stop(clipId) {
      if (current?.clipId !== clipId && ahead?.clipId !== clipId) return;
      // Requests still on their way (the viewer closed meanwhile) start nothing after this.
      changedBy = ++asked;
      going = 'on';
      await endAll();
    },
    async dispose() {
      await endAll();
      emptyFolder(dir);
    },
  };
}

/** Removes the windows left (a crash, or Windows refusing to delete a file the player still had open); what cannot go now goes at the next start. */
function emptyFolder(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Still open elsewhere (Windows): left for the next start.
  }
}
