/**
 * A card dump through the whole app pipeline against the emulator at zero latency, side by side
 * with bare decoding of the same files.
 *
 *   npm run bench:index [-- --clips N]
 *
 * The card: N (default 306) distinct clips re-encoded from the sample clips with ffmpeg (lengths
 * 2-8 s from different offsets, 640x360 to 1920x1080 and every 30th in 3840x2160, H.264 and a few
 * MPEG-4 Part 2 and VP9), generated once into .tmp/bench-index-card/ and reused. The run imports the
 * card as the Library does (it catalogues), the pipeline then probes, makes posters and, in one decode per clip, shots, thumbnails,
 * local analysis and tensors and indexes every clip against the emulator. Measured: time to the first
 * and the last poster, to the first and the last searchable clip, seconds of footage indexed per wall second, and
 * `ffmpeg -i FILE -f null -` over the same files, two at a time (both cores, as the pipeline).
 * Beside them, the floor: the pipeline's analysis decodes alone (the same ffmpeg arguments, every
 * output thrown away), the part of the ratio no change to what happens to the frames can remove.
 * And where the CPU went (Linux): the core-seconds of ffmpeg/ffprobe, of the app (this process) and
 * of the emulator (a process of its own, as the service is) while indexing, the cores kept busy,
 * and the CPU of the bare decode and of the decodes alone; with the cores saturated, the ratio is
 * a ratio of work. The tools' CPU is split into their start-up (the processes the pipeline started,
 * `toolsSpawned`, times the CPU one `-version` costs, measured here for the app's ffmpeg and
 * ffprobe side by side with the system's) and the decoding proper. The card is footage: the
 * system's ffmpeg makes it. The card is indexed twice, side by side: without proxies (every figure
 * above is of that run), then with a viewing proxy for every clip written by the same decodes
 * (`proxy_wall_ratio`: with / without; `proxy_cpu_ratio`: the core-seconds of tools, app and emulator,
 * with / without, what a machine shared with other work leaves measurable; `proxy_bytes_per_hour`;
 * `proxy_frames_equal`: every proxy holds its original's decoded frame count; `proxies_copied`: those whose picture was copied, not encoded). Last line: one JSON object (`ratio`, `footage_per_s`,
 * `tool_startup_cpu_s`, `decode_cpu_s`, `app_cpu_s`, `emulator_cpu_s`, `startup_ms`, `load_at_start`,
 * `proxy_wall_ratio`, `proxy_bytes_per_hour`, `proxy_frames_equal`...).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { analysisOutputs } from '../src-main/core/analysis/analysis-outputs';
import { DEFAULT_ANALYSIS_SETTINGS } from '../src-main/core/analysis/analysis-settings';
import { openCatalog } from '../src-main/core/catalog/open-catalog';
import { getClipRow } from '../src-main/core/library/clip-store';
import { planThumbnails } from '../src-main/core/pipeline/stages/clip-media';
import { buildDecodeArgs, decodeThreads } from '../src-main/core/media/clip-decoder';
import { runPool } from '../src-main/core/pipeline/stages/run-pool';
import type { ProxyPolicy } from '../src-main/core/proxies/proxy-policy';
import { tensorSourceOf } from '../src-main/core/pipeline/stages/analysis-stage';
import { createLibraryService } from '../src-main/core/library/library-handlers';
import { ffPath, locateTool } from '../src-main/core/media/ffmpeg-locate';
import { chooseProxyEncoder } from '../src-main/core/media/proxy-encoder';
import { proxyPicture } from '../src-main/core/proxies/proxy-picture';
import { toolsSpawned } from '../src-main/core/media/run-process';
import { footageFfmpeg } from '../test/helpers/footage/footage-ffmpeg';
import { appCpuSlots } from '../src-main/core/pipeline/app-pipeline';
import { IndexingPipeline } from '../src-main/core/pipeline/indexing-pipeline';
import { EventBus } from '../src-main/core/rpc/event-bus';
import { createServiceClient, type ServiceClient } from '../src-main/core/service/client';
import { cpuSeconds, startEmulatorProcess } from './emulator-process';

const MEDIA = path.resolve(__dirname, '..', '..', 'shared', 'media', 'videos');
const argv = process.argv.slice(2);
const CLIPS = Number(argv[argv.indexOf('--clips') + 1] ?? 0) || 306;
// One folder per card size: the import takes the whole folder, so a smaller card must not see a bigger one's files.
const CARD = path.resolve(__dirname, '..', '.tmp', CLIPS === 306 ? 'bench-index-card' : `bench-index-card-${CLIPS}`);
const KEY = 'bench-index-key-0123456789';

const SIZES = ['640x360', '960x540', '1280x720', '1920x1080'];
const LENGTHS = [2, 3, 4, 5, 6, 8];

function sources(): { file: string; durationS: number }[] {
  const ffprobe = ffPath('ffprobe');
  return fs
    .readdirSync(MEDIA)
    .filter((f) => /\.(mp4|mkv|webm|avi)$/.test(f))
    .sort()
    .map((f) => {
      const out = execFileSync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(MEDIA, f)]).toString();
      return { file: path.join(MEDIA, f), durationS: Number(out.trim()) || 0 };
    })
    .filter((s) => s.durationS >= 2);
}

/** Clip i of the card: which source, where in it, how long, what size and codec. Deterministic. */
function makeCard(n: number): string[] {
  fs.mkdirSync(CARD, { recursive: true });
  const src = sources();
  // The card is footage, not the app's work: the system's ffmpeg makes it, as it always has.
  const ffmpeg = footageFfmpeg();
  const files: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = src[i % src.length]!;
    const len = Math.min(LENGTHS[(i * 7) % LENGTHS.length]!, Math.floor(s.durationS));
    const start = ((i * 1.37) % Math.max(0.01, s.durationS - len)).toFixed(2);
    const size = i % 30 === 29 ? '3840x2160' : SIZES[(i * 5) % SIZES.length]!;
    const codec = i % 23 === 11 ? 'mpeg4' : i % 19 === 7 ? 'vp9' : 'h264';
    const ext = codec === 'vp9' ? 'webm' : codec === 'mpeg4' ? 'avi' : 'mp4';
    const out = path.join(CARD, `A${String(i + 1).padStart(3, '0')}_C${String(i % 7).padStart(3, '0')}.${ext}`);
    files.push(out);
    if (fs.existsSync(out) && fs.statSync(out).size > 4096) continue;
    const [w, h] = size.split('x');
    const vcodec =
      codec === 'h264' ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p']
      : codec === 'vp9' ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M']
      : ['-c:v', 'mpeg4', '-q:v', '5'];
    const acodec = codec === 'vp9' ? ['-c:a', 'libopus'] : codec === 'mpeg4' ? ['-c:a', 'mp3'] : ['-c:a', 'aac'];
    const tmp = `${out}.part.${ext}`;
    execFileSync(ffmpeg, [
      // Output seeking (after -i): some sources (an index-less AVI) seek wrong from the input side.
      '-hide_banner', '-loglevel', 'error', '-y', '-i', s.file, '-ss', start, '-t', String(len),
      // The hue turn makes every clip distinct even where the same stretch of a source recurs.
      '-vf', `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,hue=h=${(i * 11) % 360},fps=${i % 4 === 0 ? '30000/1001' : '25'}`,
      ...vcodec, ...acodec, '-ac', '2', '-ar', '48000', tmp,
    ]);
    if (fs.statSync(tmp).size <= 4096) throw new Error(`ffmpeg made an empty clip from ${s.file} at ${start} s`);
    fs.renameSync(tmp, out);
    if ((i + 1) % 50 === 0) console.log(`  generated ${i + 1}/${n} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return files;
}

/** Runs ffmpeg once per argument list, `parallel` at a time, every output on /dev/null; wall seconds and ffmpeg's CPU seconds. */
async function timeFfmpeg(runs: ReadonlyArray<{ args: string[]; fds?: number[] }>, parallel: number): Promise<{ wallS: number; cpuS: number | null }> {
  const ffmpeg = ffPath('ffmpeg');
  const devNull = fs.openSync('/dev/null', 'w');
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  try {
    await runPool(runs, parallel, (run) => {
      // 'ignore' would leave descriptors above 2 closed: every output pipe gets /dev/null.
      const stdio = Array.from({ length: Math.max(2, ...(run.fds ?? [])) + 1 }, (_, i) => (i === 0 ? 'ignore' : devNull));
      return new Promise<void>((resolve, reject) => {
        const p = spawn(ffmpeg, run.args, { stdio });
        p.on('error', reject);
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${run.args.join(' ')}`))));
      });
    });
  } finally {
    fs.closeSync(devNull);
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds();
  return { wallS, cpuS: cpu0 && cpu1 ? cpu1.children - cpu0.children : null };
}

/**
 * CPU milliseconds one process of a program costs before it does any work: `-version`, run `n`
 * times one after another, its CPU read from this process's reaped children (/proc).
 */
function startupCpuMs(bin: string, n = 40): number | null {
  const before = cpuSeconds();
  for (let i = 0; i < n; i++) execFileSync(bin, ['-hide_banner', '-version'], { stdio: 'ignore' });
  const after = cpuSeconds();
  return before && after ? ((after.children - before.children) / n) * 1000 : null;
}

/** The app's ffmpeg and ffprobe (bundled) beside the system's (Debian's here), measured side by side. */
function measureStartup(): { app: Record<string, number | null>; system: Record<string, number | null>; appPaths: Record<string, string>; systemPaths: Record<string, string | null> } {
  const app: Record<string, number | null> = {};
  const system: Record<string, number | null> = {};
  const appPaths: Record<string, string> = {};
  const systemPaths: Record<string, string | null> = {};
  for (const tool of ['ffmpeg', 'ffprobe'] as const) {
    appPaths[tool] = ffPath(tool);
    let sys: string | null = null;
    try {
      sys = locateTool(tool, { resourcesPath: '/nonexistent', appRoot: '/nonexistent' }).path;
    } catch {
      /* no system tool to compare with */
    }
    systemPaths[tool] = sys;
    // Alternated, so a change in the machine's load falls on both.
    app[tool] = startupCpuMs(appPaths[tool], 20);
    system[tool] = sys ? startupCpuMs(sys, 20) : null;
    app[tool] = ((app[tool] ?? 0) + (startupCpuMs(appPaths[tool], 20) ?? 0)) / 2;
    system[tool] = sys ? ((system[tool] ?? 0) + (startupCpuMs(sys, 20) ?? 0)) / 2 : null;
  }
  return { app, system, appPaths, systemPaths };
}

/** One indexing of the card by the whole pipeline, with proxies made or not; the measures of that run. */
async function indexCard(proxies: ProxyPolicy, cpus: number, cpuSlots: number, startup: ReturnType<typeof measureStartup>) {
  const spawned0 = new Map(toolsSpawned());
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-index-'));
  const emu = await startEmulatorProcess(`${KEY}:100000:100000000`);
  const db = openCatalog(path.join(work, 'catalog.sqlite'));
  const events = new EventBus();
  let client: ServiceClient | null = null;
  const service = {
    client: () =>
      (client ??= createServiceClient({
        region: 'asia',
        baseUrls: { asia: emu.url },
        apiKey: KEY,
        authHeader: 'x-api-key',
        qps: 1000,
        concurrency: 16,
        timeoutMs: 60_000,
      })),
    configured: () => true,
    identity: () => ({ region: 'asia', model: `service@${emu.url}` }),
  };
  const cacheDir = path.join(work, 'cache');
  const pipeline = new IndexingPipeline({ db, events, service, cacheDir, autoIndex: true, concurrency: { cpu: cpuSlots, network: 3 }, proxySettings: () => ({ policy: proxies, budgetBytes: 1e12 }) });
  const library = createLibraryService({ db, events, cacheDir, indexClips: (ids, o) => void pipeline.enqueueClips(ids, o), volumePollMs: 0 });
  pipeline.start();

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const marks: { first_poster_s?: number; posters_all_s?: number; first_searchable_s?: number; all_searchable_s?: number } = {};
  // Prepared once: the watcher runs ten times a second in the process it measures.
  const counts = {
    clips: db.prepare('SELECT COUNT(*) AS n FROM clips'),
    posters: db.prepare("SELECT COUNT(DISTINCT clip_id) AS n FROM thumbnails WHERE kind = 'poster'"),
    indexed: db.prepare('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL'),
    failed: db.prepare("SELECT COUNT(DISTINCT clip_id) AS n FROM jobs WHERE state = 'failed'"),
  };
  const n = (stmt: (typeof counts)[keyof typeof counts]) => (stmt.get() as { n: number }).n;
  const cpu0 = cpuSeconds();
  const emuCpu0 = emu.cpuS();
  const t0 = performance.now();
  const since = () => (performance.now() - t0) / 1000;
  const importDone = library.handlers['library.import']({ paths: [CARD] }, { transport: 'test' });
  let lastLog = 0;
  await new Promise<void>((resolve, reject) => {
    const tick = setInterval(() => {
      try {
        const clips = n(counts.clips);
        const posters = n(counts.posters);
        const indexed = n(counts.indexed);
        const failed = n(counts.failed);
        if (posters > 0 && marks.first_poster_s === undefined) marks.first_poster_s = since();
        if (clips === CLIPS && posters === CLIPS && marks.posters_all_s === undefined) marks.posters_all_s = since();
        if (indexed > 0 && marks.first_searchable_s === undefined) marks.first_searchable_s = since();
        if (since() - lastLog > 15) {
          lastLog = since();
          console.log(`  ${since().toFixed(0)} s: ${clips} catalogued, ${posters} with a poster, ${indexed} searchable, ${failed} failed`);
        }
        if (clips === CLIPS && indexed + failed >= CLIPS) {
          marks.all_searchable_s = since();
          clearInterval(tick);
          resolve();
        }
      } catch (e) {
        clearInterval(tick);
        reject(e as Error);
      }
    }, 100);
  });
  loop.disable();
  await importDone;
  const cpu1 = cpuSeconds();
  const emuCpu1 = emu.cpuS();
  const cpu =
    cpu0 && cpu1 && emuCpu0 !== null && emuCpu1 !== null
      ? { app: cpu1.own - cpu0.own, tools: cpu1.children - cpu0.children, emulator: emuCpu1 - emuCpu0 }
      : null;
  const spawnedWhileIndexing = Object.fromEntries(['ffmpeg', 'ffprobe'].map((t) => [t, (toolsSpawned().get(t) ?? 0) - (spawned0.get(t) ?? 0)]));
  const toolStartupS = (['ffmpeg', 'ffprobe'] as const).reduce((sum, t) => sum + (spawnedWhileIndexing[t]! * (startup.app[t] ?? 0)) / 1000, 0);
  const footageS = (db.prepare('SELECT COALESCE(SUM(duration_s), 0) AS s FROM clips WHERE indexed_at IS NOT NULL').get() as { s: number }).s;
  const indexed = n(counts.indexed);
  const failures = db.prepare("SELECT c.file_name, j.stage, j.last_error_message AS msg FROM jobs j JOIN clips c ON c.id = j.clip_id WHERE j.state = 'failed' LIMIT 5").all();
  // The proxies the run wrote: their bytes, and whether each holds every frame its original decoded to.
  const proxyRows = db.prepare('SELECT p.frames, p.bytes, c.frame_count, c.duration_s, c.id FROM proxies p JOIN clips c ON c.id = p.clip_id').all() as { frames: number; bytes: number; frame_count: number | null; duration_s: number | null; id: number }[];
  const proxy = {
    count: proxyRows.length,
    // Those whose picture was copied, not encoded (proxies/proxy-picture.ts, by the clip's catalogued facts).
    copied: proxyRows.filter(({ id }) => { const c = getClipRow(db, id); return proxyPicture({ container: c.container, videoCodec: c.video_codec, pixFmt: c.pix_fmt, height: c.height, rotation: c.rotation, bitRate: c.bit_rate }) === 'copy'; }).length,
    bytes: proxyRows.reduce((a, r) => a + r.bytes, 0),
    footageS: proxyRows.reduce((a, r) => a + (r.duration_s ?? 0), 0),
    framesEqual: proxyRows.every((r) => r.frames === r.frame_count),
    unequal: proxyRows.filter((r) => r.frames !== r.frame_count).length,
  };
  // Where the time went: running time per stage, summed over the parallel slots.
  const stageS = Object.fromEntries(
    (db.prepare('SELECT stage, SUM(run_ms) AS ms FROM jobs GROUP BY stage ORDER BY SUM(run_ms) DESC').all() as { stage: string; ms: number }[]).map((r) => [
      r.stage,
      Math.round(r.ms / 100) / 10,
    ]),
  );
  console.log(`proxies ${proxies}: stage running time (s, summed over slots): ${JSON.stringify(stageS)}`);
  // The analysis decode of every indexed clip with the pipeline's outputs and stills, and about its
  // threads (one share of the cores each; the pipeline gives a decode that starts alone more).
  const floorDir = path.join(work, 'floor');
  const decodes = (db.prepare('SELECT id FROM clips WHERE indexed_at IS NOT NULL ORDER BY id').all() as { id: number }[]).map(({ id }) => {
    const src = tensorSourceOf(getClipRow(db, id));
    const stills = planThumbnails(db, id, floorDir).request;
    fs.mkdirSync(stills.outDir, { recursive: true });
    const { outputs } = analysisOutputs(src, pipeline.profile, DEFAULT_ANALYSIS_SETTINGS, true);
    const audioRate = src.hasAudio ? pipeline.profile.audioSampleRate : null;
    const { args, fds, audioFd } = buildDecodeArgs({ filePath: src.filePath, startS: 0, outputs, audioRate, stills, threads: decodeThreads(cpus, cpuSlots) });
    return { args, fds: audioFd === null ? fds : [...fds, audioFd] };
  });
  library.dispose();
  await pipeline.stop();
  db.close();
  await emu.close();
  return { work, marks, all: marks.all_searchable_s!, cpu, loop: { p99: loop.percentile(99), max: loop.max }, spawnedWhileIndexing, toolStartupS, footageS, indexed, failures, stageS, decodes, proxy };
}

async function main(): Promise<void> {
  console.log(`card: ${CLIPS} clips in ${CARD}`);
  const files = makeCard(CLIPS);
  const loadAtStart = os.loadavg();
  console.log(`load average at the start: ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`);
  const startup = measureStartup();
  for (const tool of ['ffmpeg', 'ffprobe'] as const) {
    console.log(
      `start-up CPU per ${tool} process: ${startup.app[tool]?.toFixed(1)} ms (${startup.appPaths[tool]}) vs ${startup.system[tool]?.toFixed(1) ?? '-'} ms (${startup.systemPaths[tool] ?? 'no system ' + tool})`,
    );
  }
  const cpus = os.availableParallelism();
  const cpuSlots = Number(process.env.BENCH_CPU_SLOTS ?? 0) || appCpuSlots();
  console.log(`CPU slots: ${cpuSlots} (${cpus} cores)`);
  // Side by side on the same card: no proxies, then a proxy for every clip from the same decodes.
  console.log('indexing the card without proxies...');
  const off = await indexCard('never', cpus, cpuSlots, startup);
  console.log(`  all searchable in ${off.all.toFixed(1)} s`);
  console.log('indexing the card again, a proxy for every clip...');
  const on = await indexCard('always', cpus, cpuSlots, startup);
  console.log(`  all searchable in ${on.all.toFixed(1)} s; ${on.proxy.count} proxies, ${(on.proxy.bytes / 1e6).toFixed(0)} MB for ${on.proxy.footageS.toFixed(0)} s of footage; ${on.proxy.unequal} with a frame count other than the original's`);
  const coreS = (c: typeof off.cpu) => (c ? c.app + c.tools + c.emulator : null);
  const proxyCpuRatio = coreS(on.cpu) !== null && coreS(off.cpu) ? coreS(on.cpu)! / coreS(off.cpu)! : null;
  const { marks, cpu, spawnedWhileIndexing, toolStartupS, footageS, indexed, failures, decodes, loop, stageS } = off;

  let bareRun: Awaited<ReturnType<typeof timeFfmpeg>>;
  let aloneRun: Awaited<ReturnType<typeof timeFfmpeg>>;
  try {
    console.log('bare decode of the same files (ffmpeg -i FILE -f null -, two at a time)...');
    bareRun = await timeFfmpeg(files.map((f) => ({ args: ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', f, '-f', 'null', '-'] })), Math.max(1, cpus));
    console.log(`the pipeline's analysis decodes alone (outputs discarded, ${cpuSlots} at a time)...`);
    aloneRun = await timeFfmpeg(decodes, cpuSlots);
  } finally {
    // The floor's decodes write their stills under the first run's folder: both go only now.
    for (const run of [off, on]) fs.rmSync(run.work, { recursive: true, force: true });
  }
  const [bare, decodeAlone] = [bareRun.wallS, aloneRun.wallS];
  const all = off.all;
  console.log(`clips ${CLIPS}: first poster ${marks.first_poster_s?.toFixed(1)} s, posters all ${marks.posters_all_s?.toFixed(1)} s, first searchable ${marks.first_searchable_s?.toFixed(1)} s, all searchable ${all.toFixed(1)} s (${indexed} indexed)`);
  console.log(`footage ${footageS.toFixed(0)} s indexed at ${(footageS / all).toFixed(2)} s/s; bare decode ${bare.toFixed(1)} s; ratio ${(all / bare).toFixed(2)} (goal <= 1.5, and >= 15 s of footage per s)`);
  console.log(
    `floor: the analysis decodes alone take ${decodeAlone.toFixed(1)} s, ${(decodeAlone / bare).toFixed(2)} x the bare decode, before any frame is used (pipeline / decodes alone ${(all / decodeAlone).toFixed(2)})`,
  );
  console.log(
    `tool processes while indexing: ${spawnedWhileIndexing.ffprobe} ffprobe, ${spawnedWhileIndexing.ffmpeg} ffmpeg; their start-up ${toolStartupS.toFixed(1)} core-s (with the system's tools: ${(['ffmpeg', 'ffprobe'] as const).reduce((sum, t) => sum + (spawnedWhileIndexing[t]! * (startup.system[t] ?? 0)) / 1000, 0).toFixed(1)})`,
  );
  if (cpu) {
    console.log(
      `CPU while indexing: ${cpu.tools.toFixed(1)} core-s in ffmpeg/ffprobe (${toolStartupS.toFixed(1)} of it start-up), ${cpu.app.toFixed(1)} in the app (pipeline and its ONNX worker), ${cpu.emulator.toFixed(1)} in the emulator (a real service's are not on these cores); ${((cpu.app + cpu.tools + cpu.emulator) / all).toFixed(2)} of ${os.availableParallelism()} cores busy`,
    );
    console.log(`CPU of the bare decode ${bareRun.cpuS?.toFixed(1)} core-s, of the analysis decodes alone ${aloneRun.cpuS?.toFixed(1)} core-s`);
  }
  console.log(`event-loop delay p99 ${(loop.p99 / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
  if (failures.length) console.log('failed jobs:', JSON.stringify(failures));
  if (on.failures.length) console.log('failed jobs with proxies:', JSON.stringify(on.failures));
  if (cpu && on.cpu) console.log(`proxies' CPU (core-s without -> with): tools ${cpu.tools.toFixed(1)} -> ${on.cpu.tools.toFixed(1)}, app ${cpu.app.toFixed(1)} -> ${on.cpu.app.toFixed(1)}, emulator ${cpu.emulator.toFixed(1)} -> ${on.cpu.emulator.toFixed(1)}; ${on.proxy.copied} of ${on.proxy.count} pictures copied`);
  console.log(
    `proxies: all searchable in ${on.all.toFixed(1)} s with, ${off.all.toFixed(1)} s without (ratio ${(on.all / off.all).toFixed(2)}, goal <= 1.2; CPU ${coreS(on.cpu)?.toFixed(1)} core-s with, ${coreS(off.cpu)?.toFixed(1)} without, ratio ${proxyCpuRatio?.toFixed(2)}); ${((on.proxy.bytes / Math.max(1, on.proxy.footageS)) * 3600 / 1e9).toFixed(2)} GB per hour of footage; every proxy has its original's frame count: ${on.proxy.framesEqual && on.proxy.count === on.indexed}`,
  );
  console.log(
    JSON.stringify({
      clips: CLIPS,
      indexed,
      first_poster_s: Number((marks.first_poster_s ?? NaN).toFixed(1)),
      posters_all_s: Number((marks.posters_all_s ?? NaN).toFixed(1)),
      first_searchable_s: Number((marks.first_searchable_s ?? NaN).toFixed(1)),
      all_searchable_s: Number(all.toFixed(1)),
      footage_s: Number(footageS.toFixed(1)),
      footage_per_s: Number((footageS / all).toFixed(3)),
      bare_decode_s: Number(bare.toFixed(1)),
      ratio: Number((all / bare).toFixed(2)),
      decode_alone_s: Number(decodeAlone.toFixed(1)),
      decode_alone_ratio: Number((decodeAlone / bare).toFixed(2)),
      event_loop_p99_ms: Math.round(loop.p99 / 1e6),
      tools_cpu_s: cpu ? Number(cpu.tools.toFixed(1)) : null,
      tool_startup_cpu_s: Number(toolStartupS.toFixed(1)),
      decode_cpu_s: cpu ? Number((cpu.tools - toolStartupS).toFixed(1)) : null,
      tool_processes: spawnedWhileIndexing,
      startup_ms: { app: roundAll(startup.app), system: roundAll(startup.system) },
      load_at_start: Number(loadAtStart[0]!.toFixed(2)),
      app_cpu_s: cpu ? Number(cpu.app.toFixed(1)) : null,
      emulator_cpu_s: cpu ? Number(cpu.emulator.toFixed(1)) : null,
      cores_busy: cpu ? Number(((cpu.app + cpu.tools + cpu.emulator) / all).toFixed(2)) : null,
      bare_decode_cpu_s: bareRun.cpuS === null ? null : Number(bareRun.cpuS.toFixed(1)),
      decode_alone_cpu_s: aloneRun.cpuS === null ? null : Number(aloneRun.cpuS.toFixed(1)),
      cpu_slots: cpuSlots,
      stage_s: stageS,
      proxy_wall_ratio: Number((on.all / off.all).toFixed(3)),
      proxy_cpu_ratio: proxyCpuRatio === null ? null : Number(proxyCpuRatio.toFixed(3)),
      proxy_bytes_per_hour: on.proxy.footageS > 0 ? Math.round((on.proxy.bytes / on.proxy.footageS) * 3600) : null,
      proxy_frames_equal: on.proxy.count === on.indexed && on.proxy.framesEqual,
      proxies: on.proxy.count,
      proxies_copied: on.proxy.copied,
      proxy_tools_cpu_s: on.cpu ? Number(on.cpu.tools.toFixed(1)) : null,
      // What wrote them here (media/proxy-encoder.ts): the platform's encoder where it runs, else x264.
      proxy_encoder: await chooseProxyEncoder(ffPath('ffmpeg')),
      proxies_all_searchable_s: Number(on.all.toFixed(1)),
    }),
  );
}

function roundAll(o: Record<string, number | null>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null ? null : Number(v.toFixed(1))]));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
