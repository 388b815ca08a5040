import { execFileSync } from 'node:child_process';
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

/** Where a round's CPU went, in core-s (see threadParts). */
export interface CpuParts {
  /** The main thread: the pipeline, the stores, the people service, reading the decodes' pipes. */
  main: number;
  /** Of `main`, the people service (matching, grouping: `clipAnalysed`). */
  peopleService: number;
  /** Threads started after the library was opened: the analysis workers (YuNet, MobileFaceNet, crops, motion). */
  started: number;
  /** The other threads the process had before: V8's platform threads (garbage collection, compilation) and libuv's pool. */
  platform: number;
  /** Threads that ended within the round (their CPU is only in the process's total). */
  ended: number;
  /** Reaped children: the ffmpeg decodes and probes. */
  children: number;
}

/** CPU seconds of each live thread of this process, by thread id, from /proc/self/task (Linux). */
function threadCpu(tick: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      out.set(Number(tid), (f[11]! + f[12]!) / tick);
    } catch {
      // The thread ended between the listing and the read: counted in `ended`.
    }
  }
  return out;
}

/**
 * The round's CPU by part: each thread's time from `t0` to `t1` (a thread not in `before`, the
 * threads alive before the library was opened, is one the library started), what ended meanwhile as
 * the process's total less the parts, and the reaped children.
 */
function threadParts(before: ReadonlySet<number>, t0: Map<number, number>, t1: Map<number, number>, own: number, children: number, peopleService: number): CpuParts {
  const parts: CpuParts = { main: 0, peopleService, started: 0, platform: 0, ended: 0, children };
  for (const [tid, s] of t1) {
    const d = s - (t0.get(tid) ?? 0);
    if (tid === process.pid) parts.main += d;
    else if (before.has(tid)) parts.platform += d;
    else parts.started += d;
  }
  parts.ended = Math.max(0, own - parts.main - parts.platform - parts.started);
  return parts;
}

export interface IndexingCpu {
  on: number[];
  off: number[];
  /** sum(on) / sum(off), the bench's `cpu_ratio`. */
  ratio: number;
  /** Each round's on / off (its two halves, side by side): the spread the ratio has on this machine now. */
  roundRatios: number[];
  /** Per part, the mean of on - off over the rounds, in core-s. */
  partsOnMinusOff: CpuParts;
}

/**
 * What recognition costs the indexing as the issue measures it: the same card imported and indexed
 * by the whole pipeline (probe, posters, the analysis decode, tensors, uploads and service calls
 * against the emulator, the people module told of each clip), recognition on and off alternately,
 * each in a fresh library. CPU is this process's and its reaped children's (the ffmpeg decodes);
 * the emulator, a process of its own standing for the remote service, is not counted. Recognition
 * adds ~5 % to ~7 core-s, and two rounds of the same configuration differed by up to 1 core-s: so
 * several rounds, each round's ratio, and where the difference goes by part (threads of this
 * process from /proc/self/task, the ffmpeg children), so a change's effect is seen where it falls.
 * Eight rounds: on a quiet 2-core machine one round's on / off still ranged 0.90-1.24 (the same ffmpeg
 * work took 4.0-5.1 core-s from one round to the next), so four left the pooled ratio within a few
 * percent of chance, the size of the goal's margin.
 */
export async function measureIndexingCpu(
  folder: string,
  open: (work: string, recognition: boolean) => Promise<{ importAndWait: (f: string) => Promise<unknown>; peopleServiceS: () => number; close: () => Promise<void> }>,
  rounds = 8,
): Promise<IndexingCpu> {
  const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  const on: number[] = [];
  const off: number[] = [];
  const parts: Record<'on' | 'off', CpuParts[]> = { on: [], off: [] };
  // One round not counted, recognition on (its code is a superset of off's): the first round paid for
  // what came before it (in a fresh process ~0.8 core-s more than the next; in the bench, after the
  // 100k catalog and the analysis rounds, 0.6-1.1 more in three of six runs), and it fell on "on".
  {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-people-cpu-'));
    const lib = await open(work, true);
    try {
      await lib.importAndWait(folder);
    } finally {
      await lib.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  for (let round = 0; round < rounds; round++) {
    // On, off, off, on, on, off...: a drift of the machine's load, or the process warming up over the first round, falls on both.
    for (const recognition of round % 2 === 0 ? [true, false] : [false, true]) {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-people-cpu-'));
      const before = new Set(threadCpu(tick).keys());
      const lib = await open(work, recognition);
      try {
        const t0 = threadCpu(tick);
        const c0 = cpuSeconds();
        await lib.importAndWait(folder);
        const c1 = cpuSeconds();
        const t1 = threadCpu(tick);
        if (!c0 || !c1) throw new Error('CPU time is read from /proc: Linux only');
        const p = threadParts(before, t0, t1, c1.own - c0.own, c1.children - c0.children, lib.peopleServiceS());
        const s = c1.own - c0.own + p.children;
        (recognition ? on : off).push(s);
        parts[recognition ? 'on' : 'off'].push(p);
        console.log(`  round ${round + 1}, recognition ${recognition ? 'on' : 'off'}: ${s.toFixed(2)} core-s indexing (${describeParts(p)})`);
      } finally {
        await lib.close();
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const keys = Object.keys(parts.on[0]!) as Array<keyof CpuParts>;
  const partsOnMinusOff = Object.fromEntries(keys.map((k) => [k, (sum(parts.on.map((p) => p[k])) - sum(parts.off.map((p) => p[k]))) / rounds])) as unknown as CpuParts;
  return { on, off, ratio: sum(on) / sum(off), roundRatios: on.map((x, i) => x / off[i]!), partsOnMinusOff };
}

export function describeParts(p: CpuParts): string {
  return `main ${p.main.toFixed(2)} (people service ${p.peopleService.toFixed(2)}), started threads ${p.started.toFixed(2)}, platform ${p.platform.toFixed(2)}, ended ${p.ended.toFixed(2)}, children ${p.children.toFixed(2)}`;
}
