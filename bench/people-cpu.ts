import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalysisPool } from '../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../src-main/core/analysis/analyze-clip';
import { decodeThreads } from '../src-main/core/media/clip-decoder';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { appCpuSlots } from '../src-main/core/pipeline/app-pipeline';
import { runPool } from '../src-main/core/pipeline/stages/run-pool';
import { cpuSeconds } from './emulator-process';

/**
 * What recognition costs the indexing: the analysis decode of every file (shots found in it, tensors,
 * faces, motion, as the pipeline's analysis stage runs it, as many at once as its CPU slots) with
 * recognition on and off, alternately (on, off, on, off...) so a change of the machine's load falls
 * on both. CPU is this process's (the main thread and the analysis workers) plus its reaped children
 * (the ffmpeg decodes), from /proc. Each configuration has its own worker pool, warmed on the first
 * file before it is measured: the app loads its models once a session, not once a card. The ratio
 * is of the analysis alone, where recognition adds its work: stricter than the whole indexing's.
 */
export async function measureRecognitionCpu(files: readonly string[], rounds = 2): Promise<{ on: number[]; off: number[]; ratio: number }> {
  const slots = appCpuSlots();
  const threads = decodeThreads(os.availableParallelism(), slots);
  const ffmpegPath = ffPath('ffmpeg');
  const analyse = (pool: AnalysisPool, faceRecognition: boolean, file: string) =>
    analyzeClip({
      filePath: file,
      shots: { durationS: null, save: (d) => d.shots.map((s) => ({ id: s.idx, startS: s.startS, endS: s.endS })) },
      settings: { faceRecognition },
      retainTensors: false,
      pool,
      ffmpegPath,
      threads,
    });
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const recognition of [true, false]) {
      const pool = new AnalysisPool();
      try {
        await analyse(pool, recognition, files[0]!);
        const c0 = cpuSeconds();
        await runPool(files, slots, async (f) => void (await analyse(pool, recognition, f)));
        const c1 = cpuSeconds();
        if (!c0 || !c1) throw new Error('CPU time is read from /proc: Linux only');
        const s = c1.own - c0.own + (c1.children - c0.children);
        (recognition ? on : off).push(s);
        console.log(`  round ${round + 1}, recognition ${recognition ? 'on' : 'off'}: ${s.toFixed(1)} core-s`);
      } finally {
        await pool.close();
      }
    }
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { on, off, ratio: sum(on) / sum(off) };
}

/**
 * What recognition costs the indexing as the issue measures it: the same card imported and indexed
 * by the whole pipeline (probe, posters, the analysis decode, tensors, uploads and service calls
 * against the emulator, the people module told of each clip), recognition on and off alternately,
 * each in a fresh library. CPU is this process's and its reaped children's (the ffmpeg decodes);
 * the emulator, a process of its own standing for the remote service, is not counted.
 */
export async function measureIndexingCpu(folder: string, open: (work: string, recognition: boolean) => Promise<{ importAndWait: (f: string) => Promise<unknown>; close: () => Promise<void> }>, rounds = 2): Promise<{ on: number[]; off: number[]; ratio: number }> {
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const recognition of [true, false]) {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-people-cpu-'));
      const lib = await open(work, recognition);
      try {
        const c0 = cpuSeconds();
        await lib.importAndWait(folder);
        const c1 = cpuSeconds();
        if (!c0 || !c1) throw new Error('CPU time is read from /proc: Linux only');
        const s = c1.own - c0.own + (c1.children - c0.children);
        (recognition ? on : off).push(s);
        console.log(`  round ${round + 1}, recognition ${recognition ? 'on' : 'off'}: ${s.toFixed(1)} core-s indexing`);
      } finally {
        await lib.close();
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { on, off, ratio: sum(on) / sum(off) };
}
