import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { runTool } from '../../../src-main/core/media/run-process';
import { mediaFile, tempDir } from '../../helpers/paths';

/**
 * Camera moves made from a real still (a frame of sam2_01_dog.mp4 at 1280x720): a 640x360 window
 * moved with crop for pan/tilt (window right = camera pans right), zoompan for zoom, a fixed
 * window for static; light temporal noise so no two frames are identical.
 */
const CASES: Array<{ expected: string; input: 'loop' | 'single'; vf: string }> = [
  { expected: 'pan left', input: 'loop', vf: "crop=640:360:x='560-t*80':y=180" },
  { expected: 'pan right', input: 'loop', vf: "crop=640:360:x='200+t*80':y=180" },
  { expected: 'tilt up', input: 'loop', vf: "crop=640:360:x=320:y='300-t*60'" },
  { expected: 'tilt down', input: 'loop', vf: "crop=640:360:x=320:y='60+t*60'" },
  { expected: 'zoom in', input: 'single', vf: "zoompan=z='1+0.0035*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=75:s=640x360:fps=25" },
  { expected: 'zoom out', input: 'single', vf: "zoompan=z='1.3-0.0035*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=75:s=640x360:fps=25" },
  { expected: 'static', input: 'loop', vf: 'crop=640:360:x=320:y=180' },
];
const HANDHELD = "crop=640:360:x='320+14*sin(2*PI*1.7*t)+9*sin(2*PI*3.1*t+1)':y='180+10*sin(2*PI*2.3*t+2)'";

let tmp: ReturnType<typeof tempDir>;
let still: string;
let pool: AnalysisPool;

async function ffmpeg(args: string[]): Promise<void> {
  const r = await runTool(ffPath('ffmpeg'), ['-hide_banner', '-v', 'error', '-y', ...args]);
  if (r.code !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

const made = new Map<string, Promise<string>>();

function makeClip(name: string, input: 'loop' | 'single', vf: string): Promise<string> {
  const key = `${input}|${vf}`;
  let p = made.get(key);
  if (!p) {
    p = encodeClip(path.join(tmp.dir, `${name.replace(/ /g, '_')}.mp4`), input, vf);
    made.set(key, p);
  }
  return p;
}

async function encodeClip(out: string, input: 'loop' | 'single', vf: string): Promise<string> {
  const inp = input === 'loop' ? ['-loop', '1', '-framerate', '25', '-i', still] : ['-i', still];
  await ffmpeg([...inp, '-vf', `${vf},noise=alls=4:allf=t+u,format=yuv420p`, '-t', '3', '-r', '25', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', out]);
  return out;
}

async function movementOf(file: string) {
  const r = await analyzeClip({ filePath: file, shots: [{ id: 1, startS: 0, endS: 3 }], pool, retainTensors: false });
  return r.shots[0]!.motion;
}

beforeAll(async () => {
  tmp = tempDir('reelscout-motion-');
  // BMP: the looped still is decoded once per output frame, and BMP decodes fastest.
  still = path.join(tmp.dir, 'still.bmp');
  await ffmpeg(['-ss', '3', '-i', mediaFile('sam2_01_dog.mp4'), '-frames:v', '1', '-vf', 'scale=1280:720', still]);
  pool = new AnalysisPool();
});

afterAll(async () => {
  await pool?.close();
  tmp?.cleanup();
});

describe('camera motion on generated moves', () => {
  it('classifies at least 6 of the 7 moves correctly', async () => {
    const rows: Array<{ expected: string; got: string; magnitude: number; confidence: number }> = [];
    // Encode two clips at a time (one per core) while earlier ones are analysed.
    const clips = CASES.map(() => null as Promise<string> | null);
    const start = (i: number) => {
      const c = CASES[i];
      if (c && !clips[i]) clips[i] = makeClip(c.expected, c.input, c.vf);
    };
    start(0);
    start(1);
    for (const [i, c] of CASES.entries()) {
      start(i + 1);
      start(i + 2);
      const m = await movementOf(await clips[i]!);
      rows.push({ expected: c.expected, got: String(m.movement), magnitude: +m.magnitude.toFixed(3), confidence: +m.confidence.toFixed(2) });
    }
    const labels = [...new Set([...CASES.map((c) => c.expected), ...rows.map((r) => r.got)])];
    const confusion = labels.map((e) => [e.padEnd(9), ...labels.map((g) => String(rows.filter((r) => r.expected === e && r.got === g).length).padStart(5))].join(' '));
    console.log(['expected \\ got: ' + labels.map((l) => l.slice(0, 5).padStart(5)).join(' '), ...confusion].join('\n'));
    console.table(rows);
    const correct = rows.filter((r) => r.expected === r.got).length;
    expect(correct).toBeGreaterThanOrEqual(6);
  });

  it('measures pan speed in frame widths per second', async () => {
    // 80 px/s of a 640 px window = 0.125 widths/s
    const m = await movementOf(await makeClip('pan right', 'loop', "crop=640:360:x='200+t*80':y=180"));
    expect(m.panSpeed).toBeGreaterThan(0.1);
    expect(m.panSpeed).toBeLessThan(0.15);
  });

  it('calls direction-less shake handheld', async () => {
    const m = await movementOf(await makeClip('handheld', 'loop', HANDHELD));
    expect(m.movement).toBe('handheld');
    expect(m.jitter).toBeGreaterThan(0.04);
  });
});
