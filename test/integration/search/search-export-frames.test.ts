import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExportHandlers } from '../../../src-main/core/export/export-handlers';
import { createPresenceStore } from '../../../src-main/core/people/presence-store';
import { shotPlace, shotsOfClip } from '../../../src-main/core/library/shot-store';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { frameSync } from '../../../src-main/core/media/frame-sync';
import { createSearchModule, type SearchModule } from '../../../src-main/core/search/search-module';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import type { ServiceConfig } from '../../../src-main/core/service';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { exportMethods, type ExportSelection } from '../../../src-shared/contract/export';
import { searchMethods, type SearchResponse, type SearchResult } from '../../../src-shared/contract/search';
import { countingOf, secondsToFrame, shotFrames, timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { makeClip } from '../../helpers/footage/handoff-clips';
import { otioMissing, readWithOtio } from '../../helpers/readers/otio-reader';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { IndexingPipeline, TEST_KEY, importFiles, openTestCatalog, testPipelineOptions, testServiceAccess, waitUntil } from '../fixtures/pipeline-harness';

/**
 * Issue 38, point 1: a moment found by search exports exactly the frames of its shot. Clips cut at
 * known frames (25 fps, 29.97 drop-frame, 23.976, each with a start timecode; cuts whose times are
 * not whole milliseconds) and a variable-rate phone-like clip cut at known presentation times are
 * indexed through the real pipeline against the service emulator; every range of every result of
 * several searches is exported on its own, as an EDL (its source In and Out read back as frames)
 * and as FCP7 XML read by OpenTimelineIO, and compared with the shot list frame by frame.
 * Shots are shorter than the test profile's tensor (6 s), so each shot is one segment and each
 * result range one whole shot.
 */
const CFR = [
  { name: 'TC25.mov', rate: '25', r: { num: 25, den: 1 }, frames: 150, cuts: [52, 101], timecode: '10:00:00:00' },
  { name: 'TC2997DF.mov', rate: '30000/1001', r: { num: 30000, den: 1001 }, frames: 150, cuts: [47, 101], timecode: '01:00:59;00' },
  { name: 'TC2398.mov', rate: '24000/1001', r: { num: 24000, den: 1001 }, frames: 130, cuts: [41, 89], timecode: '01:00:00:00' },
] as const;
/**
 * The VFR clip: three patterns, 1.2 s at 30 fps, 1.2 s at 15 fps, 1.2 s at 30 fps, timestamps as
 * they are (about 25 fps on average: conformed to 25). The MP4 keeps no duration for its last
 * picture, so the clip ends at that picture's time: its last shot ends where the clip does.
 */
const VFR = { name: 'PHONE_VFR.mp4', cutTimes: [1.2, 2.4], endS: 3.6 };

const MISSING = otioMissing();
const OUT = path.join(REPO_ROOT, 'test-results', 'exports', 'search-frames');

let emu: EmulatorHandle;
let db: CatalogDb;
let pipeline: IndexingPipeline;
let mod: SearchModule;
let tmp: { dir: string; cleanup: () => void };
let exportBuild: ReturnType<typeof createExportHandlers>['export.build'];

interface ClipFacts {
  id: number;
  name: string;
  rate: FrameRate;
  conformed: boolean;
  /** Start timecode as a frame count (0 without one). */
  tcStart: number;
  /** The shots as the clip was made: [in, out) frames of its counting. */
  made: [number, number][];
  /** The shot list (the catalog's shots, as the shot list and shot exports count them), by shot id. */
  shots: Map<number, [number, number]>;
}
const clips = new Map<number, ClipFacts>();

beforeAll(async () => {
  resetSharedKeyStates();
  tmp = tempDir('rs-search-frames-');
  const card = path.join(tmp.dir, 'card');
  fs.mkdirSync(card);
  for (const c of CFR) makeClip(card, { name: c.name, rate: c.rate, frames: c.frames, cuts: [...c.cuts], timecode: c.timecode });
  const [a, b] = VFR.cutTimes;
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc=size=320x180:rate=30:duration=${a}`,
    '-f', 'lavfi', '-i', `smptebars=size=320x180:rate=15:duration=${b! - a!}`,
    '-f', 'lavfi', '-i', 'mandelbrot=size=320x180:rate=30',
    '-filter_complex', `[0:v]format=yuv420p,setsar=1[a];[1:v]format=yuv420p,setsar=1[b];[2:v]trim=duration=${VFR.endS - b!},setpts=PTS-STARTPTS,format=yuv420p,setsar=1[c];[a][b][c]concat=n=3:v=1[v]`,
    '-map', '[v]', ...frameSync('vfr'), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '12', path.join(card, VFR.name),
  ]);

  emu = await startEmulator({ keys: [TEST_KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  db = openTestCatalog(path.join(tmp.dir, 'data'));
  const ids = await importFiles(db, [card]);
  const service = testServiceAccess(emu.url);
  pipeline = new IndexingPipeline(testPipelineOptions(db, path.join(tmp.dir, 'data'), service));
  pipeline.enqueueClips(ids);
  pipeline.start();
  await waitUntil(() => pipeline.queue.isIdle(), 240_000, 'the clips to be indexed');
  const failed = pipeline.queue.list({ states: ['failed'] });
  if (failed.length) throw new Error(failed.map((j) => `${j.stage} ${j.clipId}: ${j.lastErrorMessage}`).join('; '));

  const cfg: ServiceConfig = { region: 'asia', baseUrls: { asia: emu.url }, apiKey: TEST_KEY, authHeader: 'x-api-key', qps: 500, concurrency: 8 };
  mod = createSearchModule({ db, indexDir: path.join(tmp.dir, 'data', 'search-index'), space: () => service.identity(), serviceConfig: () => cfg, index: { pollMs: 0 } });
  await mod.start();
  await mod.encodeBank();
  exportBuild = createExportHandlers(db, undefined, createPresenceStore(db, 1 / pipeline.profile.fps))['export.build'];

  for (const row of db.prepare('SELECT id, file_name, fps, vfr, timecode, duration_s FROM clips').all() as { id: number; file_name: string; fps: number; vfr: number; timecode: string | null; duration_s: number }[]) {
    const counting = countingOf(row.fps, row.vfr === 1);
    const cfr = CFR.find((c) => c.name === row.file_name);
    const bounds = cfr ? [0, ...cfr.cuts, cfr.frames] : [0, ...VFR.cutTimes, row.duration_s].map((t) => secondsToFrame(t, counting.rate));
    const shots = new Map(shotsOfClip(db, row.id).map((s) => {
      const f = shotFrames(shotPlace(s), counting.rate, counting.conformed);
      return [s.id, [f.inFrame, f.outFrame] as [number, number]];
    }));
    clips.set(row.id, {
      id: row.id,
      name: row.file_name,
      ...counting,
      tcStart: row.timecode ? timecodeToFrames(row.timecode, counting.rate)! : 0,
      made: bounds.slice(0, -1).map((f, k) => [f, bounds[k + 1]!]),
      shots,
    });
  }
}, 300_000);

afterAll(async () => {
  await pipeline?.stop();
  await mod?.dispose();
  db?.close();
  await emu?.close();
  tmp?.cleanup();
});

/** A result's range: its frames as the card carries them, and the segment it came from. */
interface Moment {
  clipId: number;
  segmentId: number | null;
  inFrame: number;
  outFrame: number;
}

function momentsOf(results: readonly SearchResult[]): Moment[] {
  return results.flatMap((r) => [
    { clipId: r.clipId, segmentId: r.segmentId, inFrame: r.inFrame, outFrame: r.outFrame },
    ...r.more.map((m) => ({ clipId: r.clipId, segmentId: m.segmentId, inFrame: m.inFrame, outFrame: m.outFrame })),
  ]);
}

/** The export selection of one moment, as the Search view builds it. */
const selectionOf = (m: Moment): Partial<ExportSelection> => ({ spans: [{ clipId: m.clipId, inFrame: m.inFrame, outFrame: m.outFrame }] });

async function searches(): Promise<SearchResult[][]> {
  const text = (t: string) => searchMethods['search.text'].args.parse({ text: t, topK: 100, strictness: 'any', collections: false });
  const out: SearchResponse[] = [];
  for (const q of ['a shot', 'colour bars', 'a fractal', 'test pattern']) out.push(searchMethods['search.text'].result.parse(await mod.handlers['search.text'](text(q), { transport: 'test' })));
  const seg = (db.prepare('SELECT id FROM segments ORDER BY id LIMIT 1').get() as { id: number }).id;
  const similar = searchMethods['search.similar'].args.parse({ segmentId: seg, topK: 100, strictness: 'any', exclude: 'none' });
  out.push(searchMethods['search.similar'].result.parse(await mod.handlers['search.similar'](similar, { transport: 'test' })));
  return out.map((r) => r.results);
}

const shotOfSegment = (segmentId: number) => (db.prepare('SELECT shot_id FROM segments WHERE id = ?').get(segmentId) as { shot_id: number }).shot_id;
const tcFrames = (label: string, rate: FrameRate) => timecodeToFrames(label, rate)!;

describe('search results export the frames of their shot', () => {
  let found: Moment[] | null = null;
  const moments = async () => (found ??= momentsOf((await searches()).flat()));

  it('finds every shot of the four clips as cut, each shot one segment', async () => {
    expect([...clips.values()].map((c) => c.name).sort()).toEqual([...CFR.map((c) => c.name), VFR.name].sort());
    for (const c of clips.values()) {
      // The shot list is the clips as made, frame for frame.
      expect([...c.shots.values()], c.name).toEqual(c.made);
    }
    expect((db.prepare('SELECT COUNT(*) AS n FROM segments').get() as { n: number }).n).toBe(12);
    // Each segment stored on its shot's decoded frames, Out exclusive.
    const onShot = db.prepare('SELECT COUNT(*) AS n FROM segments s JOIN shots sh ON sh.id = s.shot_id WHERE s.start_frame = sh.start_frame AND s.end_frame = sh.end_frame').get() as { n: number };
    expect(onShot.n).toBe(12);
    // Every shot of every clip is among the results.
    expect(new Set((await moments()).map((m) => shotOfSegment(m.segmentId!))).size).toBe(12);
  });

  it('as the results carry them, and in EDL and FCP7 XML (read back by OpenTimelineIO)', async () => {
    fs.mkdirSync(OUT, { recursive: true });
    const errors: string[] = [];
    let compared = 0;
    const same = (what: string, got: [number, number], want: [number, number]) => {
      compared++;
      if (got[0] !== want[0] || got[1] !== want[1]) errors.push(`${what}: [${got.join(', ')}) want [${want.join(', ')})`);
    };
    const seen = new Set<string>();
    for (const m of await moments()) {
      const key = `${m.clipId}:${m.inFrame}:${m.outFrame}:${m.segmentId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const c = clips.get(m.clipId)!;
      expect(m.segmentId).not.toBeNull();
      const want = c.shots.get(shotOfSegment(m.segmentId!))!;
      const what = `${c.name} shot ${[...c.shots.values()].indexOf(want) + 1}`;
      same(`${what} as the result carries it`, [m.inFrame, m.outFrame], want);

      const edl = (await exportBuild(exportMethods['export.build'].args.parse({ format: 'edl', selection: selectionOf(m) }), { transport: 'test' })).files;
      expect(edl).toHaveLength(1);
      const event = edl[0]!.text.split('\r\n').find((l) => /^001 /.test(l))!;
      const [srcIn, srcOut] = event.match(/\d\d:\d\d:\d\d[:;]\d\d/g)!;
      same(`${what} EDL source In/Out`, [tcFrames(srcIn!, c.rate) - c.tcStart, tcFrames(srcOut!, c.rate) - c.tcStart], want);

      if (MISSING === null) {
        const xml = (await exportBuild(exportMethods['export.build'].args.parse({ format: 'xmeml', selection: selectionOf(m) }), { transport: 'test' })).files[0]!;
        const file = path.join(OUT, `${c.name}-${m.inFrame}.xml`);
        fs.writeFileSync(file, xml.text);
        const [t] = readWithOtio(file, 'fcp_xml');
        const [item] = t!.tracks.filter((tr) => tr.kind === 'Video').flatMap((tr) => tr.items).filter((i) => i.schema === 'Clip');
        const start = Math.round(item!.start) - c.tcStart;
        same(`${what} FCP7 XML In/Out`, [start, start + Math.round(item!.duration)], want);
      }
    }
    expect(errors).toEqual([]);
    // 12 shots, each compared as carried, in the EDL and (with OpenTimelineIO) in FCP7 XML.
    expect(compared).toBe(seen.size * (MISSING === null ? 3 : 2));
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });
});
