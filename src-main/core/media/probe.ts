import fs from 'node:fs';
import { AppError } from '../../../src-shared/errors';
import { ffPath } from './ffmpeg-locate';
import type { MediaInfo } from './media-info';
import { NOMINAL_RATE_PICTURES, nominalRateOfTimes, parseProbeJson } from './probe-parse';
import { runTool } from './run-process';

export interface ProbeOptions {
  signal?: AbortSignal;
  /** ffprobe binary; defaults to the located one. */
  ffprobe?: string;
  /** Options before -i (a remote clip's relay confines the protocols and demuxers: remote/remote-input.ts). */
  inputArgs?: readonly string[];
}

export interface ProbeOutcome {
  info: MediaInfo;
  /** ffprobe's JSON as printed, kept so later code can read fields this parser ignores. */
  raw: unknown;
}

const NOT_MEDIA = 'not a recognisable media file (contents do not match any video format)';
const ISO_BOX_TYPES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid', 'styp', 'sidx', 'moof']);

/**
 * The MP4/MOV demuxer is picked by extension, so a text file named .mp4 fails with the same
 * "moov atom not found" as a truncated copy. A real one starts with an ISO box header.
 */
export function startsLikeIsoMedia(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  return ISO_BOX_TYPES.has(String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!));
}

function readHead(file: string): Uint8Array {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(16);
      const n = fs.readSync(fd, buf, 0, 16, 0);
      return buf.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return new Uint8Array(0);
  }
}

/** Maps ffprobe's stderr to a sentence an editor can act on. */
export function explainProbeFailure(stderr: string, head?: Uint8Array): string {
  const s = stderr.toLowerCase();
  if (s.includes('moov atom not found')) {
    if (head && !startsLikeIsoMedia(head)) return NOT_MEDIA;
    return 'file is truncated or damaged (moov atom not found): was the copy interrupted?';
  }
  if (s.includes('invalid data found when processing input')) return NOT_MEDIA;
  if (s.includes('permission denied')) return 'permission denied';
  if (s.includes('no such file')) return 'file disappeared during import';
  if (s.includes('end of file')) return 'file ends unexpectedly (truncated)';
  const last = stderr.trim().split('\n').filter(Boolean).at(-1);
  return last ? `ffprobe could not read the file: ${last.replace(/^.*?:\s*/, '').slice(0, 200)}` : 'ffprobe could not read the file';
}

/**
 * One ffprobe run per file: format, streams and side data (rotation) in one JSON document.
 * Failures become AppError('media') with a readable reason; cancellation stays 'cancelled'.
 */
export async function probeFile(file: string, opts: ProbeOptions = {}): Promise<ProbeOutcome> {
  const bin = opts.ffprobe ?? ffPath('ffprobe');
  const res = await runTool(
    bin,
    ['-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', ...(opts.inputArgs ?? []), '-i', file],
    { signal: opts.signal, maxStdoutBytes: 16 * 1024 * 1024 },
  );
  if (res.code !== 0) throw new AppError('media', explainProbeFailure(res.stderr, readHead(file)));
  let raw: unknown;
  try {
    raw = JSON.parse(res.stdout.toString('utf8'));
  } catch (e) {
    throw new AppError('media', 'ffprobe printed output that is not JSON', { cause: e });
  }
  const info = parseProbeJson(raw, file);
  if (!info.hasVideo && !info.hasAudio) throw new AppError('media', explainProbeFailure(res.stderr || 'Invalid data found when processing input'));
  // A variable-rate clip counts at the rate it was shot at: its first pictures tell it (a second
  // read of the container, no decode); ffprobe's rates stand when they do not (nominalRateOfTimes).
  if (!info.vfr) return { info, raw };
  return { info: { ...info, fps: (await readNominalRate(file, { ffprobe: bin, signal: opts.signal, inputArgs: opts.inputArgs })) ?? info.fps }, raw };
}

/**
 * The rate a VFR file's first pictures show it was shot at (nominalRateOfTimes on their times, read
 * from the container without decoding); null when they show none or ffprobe cannot read them. The
 * probe's reading, and the background rate job's for clips probed before it (pipeline/stages/rate-stage.ts).
 */
export async function readNominalRate(file: string, opts: Omit<PictureTimesOptions, 'firstPackets'> = {}): Promise<number | null> {
  const times = await readPictureTimes(file, { ...opts, firstPackets: NOMINAL_RATE_PICTURES });
  return times && nominalRateOfTimes(times);
}

export interface PictureTimesOptions {
  ffprobe?: string;
  signal?: AbortSignal;
  /** Options before -i (a remote clip's relay: probeFile's). */
  inputArgs?: readonly string[];
  /** Only the first this many packets (in file order): enough to tell a rate, without reading a long file whole. */
  firstPackets?: number;
}

/**
 * Every presentation time (s) of a file's first video stream a player presents, in presentation
 * order, read from the container without decoding (`packet=pts` on the stream's `time_base`, times
 * as a player's media time counts them; packets an edit list hides, flagged D, left out). What the
 * viewer maps a conformed (VFR) clip's grid positions onto. Packets without a time are skipped;
 * null when ffprobe cannot read the file or finds no timed packet.
 */
export async function readPictureTimes(file: string, opts: PictureTimesOptions = {}): Promise<number[] | null> {
  const first = opts.firstPackets ? ['-read_intervals', `%+#${opts.firstPackets}`] : [];
  const res = await runTool(
    opts.ffprobe ?? ffPath('ffprobe'),
    ['-v', 'error', '-select_streams', 'v:0', ...first, '-show_entries', 'stream=time_base:packet=pts,flags', '-of', 'csv', ...(opts.inputArgs ?? []), '-i', file],
    { signal: opts.signal, maxStdoutBytes: 64 * 1024 * 1024 },
  );
  if (res.code !== 0) return null;
  return parsePictureTimes(res.stdout.toString('utf8'));
}

/** ffprobe's csv of `stream=time_base:packet=pts,flags` ("stream,1/90000", "packet,3700,K__"...) -> sorted seconds of the packets not discarded; null without a time base or a time. */
export function parsePictureTimes(csv: string): number[] | null {
  let tb: [number, number] | null = null;
  const ticks: number[] = [];
  for (const line of csv.split('\n')) {
    const [section, value, flags] = line.trim().split(',');
    if (section === 'stream' && value) {
      const m = /^(\d+)\/(\d+)$/.exec(value);
      if (m && Number(m[1]) > 0 && Number(m[2]) > 0) tb = [Number(m[1]), Number(m[2])];
    } else if (section === 'packet' && value && /^-?\d+$/.test(value) && !flags?.includes('D')) ticks.push(Number(value));
  }
  if (!tb || ticks.length === 0) return null;
  const [num, den] = tb;
  return ticks.sort((a, b) => a - b).map((t) => (t * num) / den);
}
