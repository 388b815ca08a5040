import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import { storeAnalysis } from '../../../src-main/core/analysis/analysis-store';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import { ServiceClient, type ServiceConfig } from '../../../src-main/core/service';
import { DEFAULT_TENSOR_PROFILE } from '../../../src-main/core/tensors/tensor-profile';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import type { Envelope } from '../../../src-shared/contract';
import type { SearchResponse } from '../../../src-shared/contract/search';
import { secondsToFrame } from '../../../src-shared/timecode';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { insertClip, insertShot } from '../../helpers/catalog/search-catalog';
import { seedPersonOnFaces, storedFaces, type StoredFace } from '../../helpers/people/seed-people';
import { embedClips, type EmbeddedClip } from './search-fixture';

/**
 * Issue 39, search by person, through the app core as the web transport serves it (real HTTP): two
 * real signing clips analysed by the real face detection, people seeded over the faces it found
 * (test/helpers/people/seed-people.ts, as the people module leaves them once named). `@Name` lists exactly
 * the frames where that person's face samples are, each standing for half a sampling step either
 * side (samples two steps apart are one stretch), computed here from the faces alone; `@A @B`,
 * `@A -@B` and `@A close-up` are the intersection, the difference, and the AND with the filter.
 */
const KEY = 'rs-people-search-5d21';
const STEP_S = 1 / DEFAULT_TENSOR_PROFILE.fps;
let tmp: { dir: string; cleanup: () => void };
let emu: EmulatorHandle;
let app: WebApp;
let clips: EmbeddedClip[];
const faces = { ana: [] as StoredFace[], tom: [] as StoredFace[], ines: [] as StoredFace[] };
/** A clip analysed here and never sent to the service: no segment, its faces known locally only. */
let unsent: { clipId: number; file: string };

async function http<T>(method: string, args: unknown): Promise<T> {
  const res = await fetch(`${app.server.url}/rpc/${encodeURIComponent(method)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelscout-token': app.server.token },
    body: JSON.stringify(args),
  });
  const env = (await res.json()) as Envelope;
  if (!env.ok) throw new Error(`${method}: ${env.error.kind}: ${env.error.message}`);
  return env.value as T;
}
const search = (text: string) => http<SearchResponse>('search.text', { text, topK: 100, collections: false });

/** Every frame a response's moments cover, as "clip:frame". */
function framesOf(r: SearchResponse): Set<string> {
  const out = new Set<string>();
  for (const c of r.results) for (const m of [c, ...c.more]) for (let f = m.inFrame; f < m.outFrame; f++) out.add(`${c.clipId}:${f}`);
  return out;
}

/** The frames a person's faces cover, from the faces alone: each sample ± half a step, clamped to its shot; samples up to 2.5 steps apart join. */
function framesOfFaces(list: readonly StoredFace[]): Set<string> {
  const out = new Set<string>();
  const byShot = new Map<number, StoredFace[]>();
  for (const f of list) (byShot.get(f.shotId) ?? byShot.set(f.shotId, []).get(f.shotId)!).push(f);
  for (const [shotId, fs_] of byShot) {
    const shot = app.core.db.prepare('SELECT start_s, end_s, clip_id FROM shots WHERE id = ?').get(shotId) as { start_s: number; end_s: number; clip_id: number };
    const rate = { num: 30, den: 1 };
    const times = [...new Set(fs_.map((f) => f.timeS))].sort((a, b) => a - b);
    let from = times[0]!;
    for (let i = 0; i < times.length; i++) {
      const last = i === times.length - 1 || times[i + 1]! - times[i]! > STEP_S * 2.5;
      if (!last) continue;
      const a = secondsToFrame(Math.max(shot.start_s, from - STEP_S / 2), rate);
      const b = secondsToFrame(Math.min(shot.end_s, times[i]! + STEP_S / 2), rate);
      for (let f = a; f < b; f++) out.add(`${shot.clip_id}:${f}`);
      from = times[i + 1]!;
    }
  }
  return out;
}
const sorted = (s: Set<string>) => [...s].sort();
const and = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));
const minus = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => !b.has(x)));

beforeAll(async () => {
  tmp = tempDir('rs-people-search-');
  emu = await startEmulator({ keys: [KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  const renderer = path.join(tmp.dir, 'renderer');
  fs.mkdirSync(renderer);
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html>');
  app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
  await http('settings.update', { baseUrls: { asia: emu.url } });
  await http('settings.setApiKey', { key: KEY });
  const { index } = await http<{ index: { model: string; region: string } }>('search.status', {});
  const cfg: ServiceConfig = { region: 'asia', baseUrls: { asia: emu.url }, apiKey: KEY, authHeader: 'x-api-key', qps: 500, concurrency: 8 };
  const card = path.join(tmp.dir, 'card');
  fs.mkdirSync(card);
  const files = ['intel_asl_book.mkv', 'intel_asl_sister.mkv'].map((n) => {
    fs.copyFileSync(mediaFile(n), path.join(card, n));
    return { name: n, file: path.join(card, n) };
  });
  // One-second segments: a person's stretch starts and ends inside segments, and runs over several.
  clips = await embedClips({ db: app.core.db, client: new ServiceClient(cfg), space: index, clips: files, realVolumes: true, chunkS: 1 });
  // intel_asl_thanks: 51 frames at 30 fps, catalogued on the same volume, one shot (its times, as this fixture's other shots), no segment.
  const thanks = path.join(card, 'intel_asl_thanks.mkv');
  fs.copyFileSync(mediaFile('intel_asl_thanks.mkv'), thanks);
  const vol = app.core.db.prepare('SELECT v.id, v.mount_path FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?').get(clips[0]!.clipId) as { id: number; mount_path: string };
  const unsentId = insertClip(app.core.db, { volumeId: vol.id, relPath: path.relative(vol.mount_path, thanks).split(path.sep).join('/'), durationS: 51 / 30, fps: 30, width: 640, height: 480 });
  insertShot(app.core.db, unsentId, 0, 0, 51 / 30);
  unsent = { clipId: unsentId, file: thanks };
  const pool = new AnalysisPool({ size: 1 });
  try {
    for (const c of [...clips, unsent]) {
      const shots = (app.core.db.prepare('SELECT id, start_s AS startS, end_s AS endS FROM shots WHERE clip_id = ?').all(c.clipId) as { id: number; startS: number; endS: number }[]);
      const r = await analyzeClip({ filePath: c.file, shots, pool, source: await probeSource(c.file), settings: {}, retainTensors: false });
      storeAnalysis(app.core.db, r.shots, { profileId: r.profileId, faceModel: pool.modelPath });
    }
  } finally {
    await pool.close();
  }
  // Ana María is the signer of the book clip, Tom the one of the sister clip, except in the middle
  // of the book clip where their faces alternate sample by sample: both are in the shot at once there.
  const [book, sister] = clips;
  const found = storedFaces(app.core.db);
  const bookFaces = found.filter((f) => f.clipId === book!.clipId);
  const mid = bookFaces.filter((f) => f.timeS >= 1 && f.timeS <= 2.5);
  // She is not seen after 3 s: her moment ends there, not at the end of the segment holding it.
  faces.ana = bookFaces.filter((f) => f.timeS <= 3 && (!mid.includes(f) || mid.indexOf(f) % 2 === 0));
  faces.tom = [...mid.filter((f) => mid.indexOf(f) % 2 === 1), ...found.filter((f) => f.clipId === sister!.clipId)];
  seedPersonOnFaces(app.core.db, 'Ana María', faces.ana);
  // In the clip never sent to the service: Inès for its first second, Tom after.
  faces.ines = found.filter((f) => f.clipId === unsent.clipId && f.timeS < 1);
  faces.tom.push(...found.filter((f) => f.clipId === unsent.clipId && f.timeS >= 1));
  seedPersonOnFaces(app.core.db, 'Tom', faces.tom);
  seedPersonOnFaces(app.core.db, 'Inès', faces.ines);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await emu?.close();
  tmp?.cleanup();
});

describe('search by person (@Name) over HTTP', () => {
  it('the analysis found faces to name in both clips, and the middle of the book clip has both people', () => {
    expect(faces.ana.length).toBeGreaterThanOrEqual(4);
    expect(faces.tom.filter((f) => f.clipId === clips[0]!.clipId).length).toBeGreaterThanOrEqual(1);
    expect(faces.tom.filter((f) => f.clipId === clips[1]!.clipId).length).toBeGreaterThanOrEqual(2);
  });

  it('@Name lists exactly the frames where that person is, grouped per clip, with a chip named as the catalog spells it', async () => {
    const ana = await search('@"ana maria"');
    expect(ana.cannotRun).toBeNull();
    expect(ana.results.map((r) => r.clipId)).toEqual([clips[0]!.clipId]);
    expect(ana.results[0]!.clipRate).toEqual({ num: 30, den: 1 });
    expect(sorted(framesOf(ana))).toEqual(sorted(framesOfFaces(faces.ana)));
    expect(ana.parsed!.chips).toEqual([{ field: 'person', value: 'ana maria', label: 'Ana María', negated: false, phrase: '@"ana maria"' }]);
    // A moment is where she is, not the whole one-second segment around it.
    expect(Math.max(...ana.results.map((r) => r.outFrame))).toBeLessThan(secondsToFrame(clips[0]!.durationS, { num: 30, den: 1 }));
    const tom = await search('@Tom');
    expect(sorted(framesOf(tom))).toEqual(sorted(framesOfFaces(faces.tom)));
    // In the book clip Tom is only in its middle: one moment over two segments, cut at both ends.
    const inBook = tom.results.find((r) => r.clipId === clips[0]!.clipId)!;
    expect([inBook.inFrame, inBook.outFrame, inBook.more]).toEqual([secondsToFrame(1.25, { num: 30, den: 1 }), secondsToFrame(2.75, { num: 30, den: 1 }), []]);
    expect(new Set(tom.results.map((r) => r.clipId))).toEqual(new Set([...clips.map((c) => c.clipId), unsent.clipId]));
  });

  it('@A @B is where both are; @A -@B where A is and B is not', async () => {
    const ana = framesOf(await search('@"Ana María"'));
    const tom = framesOf(await search('@Tom'));
    const both = framesOf(await search('@"Ana María" @Tom'));
    expect(both.size).toBeGreaterThan(0);
    expect(sorted(both)).toEqual(sorted(and(ana, tom)));
    const anaNotTom = framesOf(await search('@"Ana María" -@Tom'));
    expect(anaNotTom.size).toBeGreaterThan(0);
    expect(sorted(anaNotTom)).toEqual(sorted(minus(ana, tom)));
    // -@Tom alone: every searchable moment without Tom, Ana María's own included (a list of the index's segments: the unsent clip has none).
    const withoutTom = framesOf(await search('-@Tom'));
    expect([...withoutTom].filter((f) => tom.has(f))).toEqual([]);
    expect([...anaNotTom].filter((f) => !withoutTom.has(f))).toEqual([]);
  });

  it('@A medium shot is @A ANDed with the shot-size filter, and with the filter bar', async () => {
    // The emulator tags every segment of these clips a medium shot: "not medium" leaves nothing.
    const tom = framesOf(await search('@Tom'));
    const mediums = framesOf(await search('medium shot'));
    const combined = await search('@Tom medium shot');
    expect(combined.parsed!.chips.map((c) => `${c.field}:${c.value}`)).toEqual(['person:Tom', 'shotSize:medium']);
    expect(framesOf(combined).size).toBeGreaterThan(0);
    expect(sorted(framesOf(combined))).toEqual(sorted(and(tom, mediums)));
    const notMedium = await search('@Tom not medium');
    expect(notMedium.cannotRun).toBeNull();
    expect(notMedium.results).toEqual([]);
    const sister = clips[1]!.clipId;
    const inSister = await http<SearchResponse>('search.text', { text: '@Tom', topK: 100, collections: false, filters: { clipIds: [sister] } });
    expect(sorted(framesOf(inSister))).toEqual(sorted(new Set([...tom].filter((f) => f.startsWith(`${sister}:`)))));
    expect(inSister.results.map((r) => r.clipId)).toEqual([sister]);
  });

  it('an @name nobody has says so, instead of an empty list without a word', async () => {
    const r = await search('@Zorro interview');
    expect(r.results).toEqual([]);
    expect(r.cannotRun).toMatchObject({ kind: 'not_found' });
    expect(r.cannotRun!.message).toContain('“Zorro”');
    const long = await search(`@${'x'.repeat(900)}`);
    expect(long.cannotRun!.kind).toBe('not_found');
    expect(long.cannotRun!.message.length).toBeLessThan(300);
  });

  it('@Name finds a clip never sent to the service from its faces alone, grouped per clip like every result', async () => {
    expect(faces.ines.length).toBeGreaterThanOrEqual(2);
    expect(app.core.db.prepare('SELECT COUNT(*) FROM segments WHERE clip_id = ?').pluck().get(unsent.clipId)).toBe(0);
    // Typed without the accent, as editors do: the accent-folded name finds her.
    const ines = await search('@Ines');
    expect(ines.cannotRun).toBeNull();
    expect(ines.results.map((r) => [r.clipId, r.segmentId, r.score])).toEqual([[unsent.clipId, null, null]]);
    expect(ines.stats).toMatchObject({ allowed: 0, unindexed: 1 });
    expect(sorted(framesOf(ines))).toEqual(sorted(framesOfFaces(faces.ines)));
    // With someone else left out, and both in: the same spans' rules as for indexed clips.
    expect(sorted(framesOf(await search('@Inès -@Tom')))).toEqual(sorted(framesOfFaces(faces.ines)));
    expect((await search('@Inès @Tom')).results).toEqual([]);
    // Other filters still hold: a clip filter that leaves it out leaves nothing.
    const elsewhere = await http<SearchResponse>('search.text', { text: '@Inès', topK: 100, collections: false, filters: { clipIds: [clips[0]!.clipId] } });
    expect(elsewhere.results).toEqual([]);
  });

  it('@Name with words: the indexed clips are scored on the words, the unsent clip follows them unscored', async () => {
    const withWords = await search('@Inès red');
    expect(withWords.cannotRun).toBeNull();
    expect(withWords.results.map((r) => [r.clipId, r.score, r.good])).toEqual([[unsent.clipId, null, false]]);
    expect(sorted(framesOf(withWords))).toEqual(sorted(framesOfFaces(faces.ines)));
    // Tom is in both: his indexed clips first, scored on "red"; the unsent clip last, its score not shown.
    const tom = await search('@Tom red');
    expect(tom.results.map((r) => r.clipId).slice(0, -1).sort()).toEqual(clips.map((c) => c.clipId).sort());
    expect(tom.results.slice(0, -1).every((r) => r.score !== null)).toBe(true);
    expect(tom.results.at(-1)).toMatchObject({ clipId: unsent.clipId, segmentId: null, score: null, good: false });
    expect(sorted(framesOf(tom))).toEqual(sorted(framesOf(await search('@Tom'))));
  });
});
