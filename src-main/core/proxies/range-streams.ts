import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { streamWindowOf } from '../../../src-shared/stream-window';
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
  /** The window starting at frame `from` of the clip, transcoded if it is not yet (waits until it is written). */
  open(clipId: number, from: number): Promise<OpenedFile | AppError>;
  /** The viewer closed or plays something else: the clip's stream is killed and its file removed. */
  stop(clipId: number): Promise<void>;
  /** The catalog closes: whatever stream runs is killed, the folder emptied. */
  dispose(): Promise<void>;
}

interface Job {
  clipId: number;
  from: number;
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
 * proxy yet, the viewer plays the window under its playhead, transcoded on demand by the bundled
 * ffmpeg (range-stream-args.ts) into a temporary MP4 under the cache folder and served by the same
 * media route as proxies (opened under the cache folder, media-resolver.ts). Bounded: one window is
 * made or kept at a time, so the transcode never runs more than a window ahead of the playhead; a
 * request for another window (the editor played on or sought away, or opened another clip) kills
 * the one before and removes its file, and so does the viewer closing (`stop`).
 */
export function createRangeStreams(o: {
  cacheDir: string;
  ffmpeg: () => string;
  source: (clipId: number) => Promise<StreamSource | AppError>;
  /** Window length (stream-window.ts; the viewer asks on the same grid): only tests shorten it. */
  windowS?: number;
}): RangeStreams {
  const dir = path.join(o.cacheDir, STREAMS_DIR);
  emptyFolder(dir);
  let current: Job | null = null;

  async function end(job: Job): Promise<void> {
    if (current === job) current = null;
    job.killed = true;
    killChild(job.child);
    await job.done;
    await fs.promises.rm(path.join(o.cacheDir, job.rel), { force: true }).catch(() => undefined);
  }

  function start(clipId: number, from: number, src: StreamSource): Job {
    const win = streamWindowOf(from, src.rate, src.frames, o.windowS);
    const rel = path.posix.join(STREAMS_DIR, `${clipId}-${from}-${randomBytes(4).toString('hex')}.mp4`);
    fs.mkdirSync(dir, { recursive: true });
    const args = rangeStreamArgs({ input: src.path, rate: src.rate, from, frames: win.to - win.from, audio: src.audio, outFile: path.join(o.cacheDir, rel) });
    const ffmpeg = o.ffmpeg();
    const child = spawnTool(ffmpeg, args);
    let stderr = '';
    child.stdout!.resume();
    child.stdin!.end();
    child.stderr!.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-4000);
    });
    const job: Job = { clipId, from, rel, child, killed: false, done: Promise.resolve(null) };
    job.done = new Promise<AppError | null>((resolve) => {
      child.once('error', (e: NodeJS.ErrnoException) => resolve(toolStartFailure(ffmpeg, e)));
      child.once('close', (code, signal) => {
        if (job.killed || signal) resolve(new AppError('cancelled', `the preview stream of clip ${clipId} from frame ${from} was stopped`));
        else if (code === 0) resolve(null);
        else resolve(new AppError('media', `ffmpeg could not make the preview stream of clip ${clipId} from frame ${from}: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`));
      });
    });
    return job;
  }

  return {
    async open(clipId, from) {
      const src = await o.source(clipId);
      if (src instanceof AppError) return src;
      if (streamWindowOf(from, src.rate, src.frames, o.windowS).from !== from) return new AppError('invalid', `frame ${from} does not start a preview window of clip ${clipId}`);
      let job = current;
      if (!job || job.clipId !== clipId || job.from !== from) {
        if (job) await end(job);
        // Another request may have started this window while the last one was ending.
        job = current && current.clipId === clipId && current.from === from ? current : null;
        if (!job) {
          if (current) await end(current);
          job = start(clipId, from, src);
          current = job;
        }
      }
      const failed = await job.done;
      if (failed) return failed;
      if (current !== job) return new AppError('cancelled', `the preview stream of clip ${clipId} from frame ${from} was replaced`);
      return openUnder(o.cacheDir, job.rel);
    },
    async stop(clipId) {
      if (current && current.clipId === clipId) await end(current);
    },
    async dispose() {
      if (current) await end(current);
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
