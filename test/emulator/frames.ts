import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Frames } from './semantics';

/** The emulator is a separate test double: it finds ffmpeg itself (FFMPEG_PATH/FFPROBE_PATH or PATH). */
const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

export const DECODE_SIZE = 32;

function run(bin: string, args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: err }));
  });
}

async function probeDuration(file: string): Promise<number | undefined> {
  const r = await run(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file]);
  const d = Number(r.stdout.toString().trim());
  return r.code === 0 && Number.isFinite(d) && d > 0 ? d : undefined;
}

const cache = new Map<string, Promise<Frames>>();

/**
 * Decodes up to `count` frames spread over the video at 32x32 RGB. Results are cached by path,
 * size and mtime: decoding is deterministic, and soak tests reuse one small file many times.
 */
export function decodeVideoFrames(file: string, count: number): Promise<Frames> {
  let key: string;
  try {
    const st = fs.statSync(file);
    key = `${file}|${st.size}|${st.mtimeMs}|${count}`;
  } catch {
    return Promise.reject(new Error(`cannot read video file`));
  }
  const hit = cache.get(key);
  if (hit) return hit;
  const p = decodeUncached(file, count);
  cache.set(key, p);
  p.catch(() => cache.delete(key));
  if (cache.size > 500) cache.delete(cache.keys().next().value!);
  return p;
}

async function decodeUncached(file: string, count: number): Promise<Frames> {
  const duration = await probeDuration(file);
  const fps = duration ? Math.max(count / duration, 0.01) : 2;
  const size = DECODE_SIZE;
  const r = await run(FFMPEG, [
    '-v', 'error', '-nostdin', '-i', file, '-an', '-sn', '-dn',
    '-vf', `fps=${fps.toFixed(6)},scale=${size}:${size}:flags=area,format=rgb24`,
    '-frames:v', String(count), '-f', 'rawvideo', 'pipe:1',
  ]);
  const frameBytes = size * size * 3;
  const n = Math.floor(r.stdout.length / frameBytes);
  if (n === 0) {
    const reason = r.stderr.trim().split('\n').pop() || 'no video frames';
    throw new Error(`video could not be decoded: ${reason}`);
  }
  const frames: Uint8Array[] = [];
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    frames.push(new Uint8Array(r.stdout.subarray(i * frameBytes, (i + 1) * frameBytes)));
    times.push((i + 0.5) / fps);
  }
  return { frames, width: size, height: size, times };
}
