import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { isStreamWindow, streamWindowAfter, type StreamWindow } from '../../../src-shared/stream-window';
import type { FrameRate } from '../../../src-shared/timecode';
import { killChild, spawnTool, toolStartFailure } from '../media/run-process';
import { openUnder, type OpenedFile } from '../util/open-verified';
import { rangeStreamArgs } from './range-stream-args';

/** What a clip's preview stream is made from: its checked original, its rate and length, its sound. */
export interface StreamSource {
  path: string;
  rate: FrameRate;
  /** Frames in the clip (null: unknown, the window is cut at its full length). */
  frames: number | null;
  audio: boolean;
}

export interface RangeStreams {
  /** The window of the clip, transcoded if it is not yet (waits until it is written); the one play runs on into is then made ahead. */
  open(clipId: number, window: StreamWindow): Promise<OpenedFile | AppError>;
  /** The viewer closed or plays something else: the clip's stream is killed and its files removed. */
  stop(clipId: number): Promise<void>;
  /** The catalog closes: whatever stream runs is killed, the folder emptied. */
  dispose(): Promise<void>;
}

interface Job {
  clipId: number;
  window: StreamWindow;
  /** Under the cache folder. */
  rel: string;
  child: ChildProcess;
  /** Stopped by us (ffmpeg answers SIGTERM by finishing with exit code 255, not by the signal). */
  killed: boolean;
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
 * and, once it is written, the one play runs on into (twice as long), made ahead so that playing on
 * does not wait for it; never more, so the transcode never runs more than a window ahead of the
 * playhead. Asking that one makes it the window served; asking any other (the editor sought away,
 * played backwards out of it, or opened another clip) kills both and removes their files, and so
 * does the viewer closing (`stop`).
 */
export function createRangeStreams(o: {
  cacheDir: string;
  ffmpeg: () => string;
  source: (clipId: number) => Promise<StreamSource | AppError>;
  /** Head length in seconds (stream-window.ts; the viewer asks on the same grid): only tests change it. */
  headS?: number;
}): RangeStreams {
  const dir = path.join(o.cacheDir, STREAMS_DIR);
  emptyFolder(dir);
  /** The window served, and the one made ahead of it (null until the served one is written). */
  let current: Job | null = null;
  let ahead: Job | null = null;
  /** Requests numbered as they arrive, and the number of the last one that started or promoted a window. */
  let asked = 0;
  let changedBy = 0;

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

  const same = (job: Job | null, clipId: number, w: StreamWindow): job is Job => job !== null && job.clipId === clipId && job.window.from === w.from && job.window.to === w.to;

  function start(clipId: number, window: StreamWindow, src: StreamSource): Job {
    const rel = path.posix.join(STREAMS_DIR, `${clipId}-${window.from}-${window.to}-${randomBytes(4).toString('hex')}.mp4`);
    fs.mkdirSync(dir, { recursive: true });
    const args = rangeStreamArgs({ input: src.path, rate: src.rate, from: window.from, frames: window.to - window.from, audio: src.audio, outFile: path.join(o.cacheDir, rel) });
    const ffmpeg = o.ffmpeg();
    const child = spawnTool(ffmpeg, args);
    let stderr = '';
    child.stdout!.resume();
    child.stdin!.end();
    child.stderr!.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-4000);
    });
    const what = `the preview stream of clip ${clipId} for frames ${window.from}-${window.to - 1}`;
    const job: Job = { clipId, window, rel, child, killed: false, done: Promise.resolve(null) };
    job.done = new Promise<AppError | null>((resolve) => {
      child.once('error', (e: NodeJS.ErrnoException) => resolve(toolStartFailure(ffmpeg, e)));
      child.once('close', (code, signal) => {
        if (job.killed || signal) resolve(new AppError('cancelled', `${what} was stopped`));
        else if (code === 0) resolve(null);
        else resolve(new AppError('media', `ffmpeg could not make ${what}: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`));
      });
    });
    return job;
  }

  /** The window served is written: the one play runs on into is started, unless it runs already or the clip ends here. */
  function makeAhead(job: Job, src: StreamSource): void {
    if (current !== job || ahead !== null) return;
    const next = streamWindowAfter(job.window, src.rate, src.frames, o.headS);
    if (next) ahead = start(job.clipId, next, src);
  }

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
        // Play ran on into the window made ahead: it is served now, the one before is done with.
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
      makeAhead(job, src);
      return openUnder(o.cacheDir, job.rel);
    },
    async stop(clipId) {
      if (current?.clipId !== clipId && ahead?.clipId !== clipId) return;
      // Requests still on their way (the viewer closed meanwhile) start nothing after this.
      changedBy = ++asked;
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
