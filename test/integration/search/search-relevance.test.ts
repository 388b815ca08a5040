import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import type { SearchModule } from '../../../src-main/core/search/search-module';
import { textSearch } from '../../helpers/catalog/text-search';
import { emulatedCatalog, makeColourClips, searchOver, type EmbeddedClip, type EmulatedCatalog } from './search-fixture';

/**
 * Search an editor trusts (issue 12), on the emulator's colour vocabulary: readable scores in the
 * order shown, camera words as filters, no junk for a query that matches nothing, one card per file.
 */
const KEY = 'relevance-key-2207';
let world: EmulatedCatalog | undefined;
let search: Awaited<ReturnType<typeof searchOver>> | undefined;
let db: CatalogDb;
let mod: SearchModule;
let clips: EmbeddedClip[];
const byName = (n: string) => clips.find((c) => c.name === n)!;

const text = (q: string, filters?: unknown) => textSearch(mod, q, { filters });

beforeAll(async () => {
  world = await emulatedCatalog({
    prefix: 'rs-relevance-',
    key: KEY,
    emulator: { asyncPendingMs: 5, asyncProcessingMs: 5 },
    footage: async (d) => {
      const made = await makeColourClips(path.join(d, 'footage'));
      // The red clip copied to another card: the same bytes at a second path.
      const copyDir = path.join(d, 'card-b');
      fs.mkdirSync(copyDir, { recursive: true });
      const red = made.find((c) => c.name === 'red')!;
      fs.copyFileSync(red.file, path.join(copyDir, 'red.mp4'));
      return [...made, { name: 'red-copy', file: path.join(copyDir, 'red.mp4'), shots: red.shots }];
    },
  });
  ({ db, clips } = world);
  // Fingerprints as the import computes them.
  for (const c of clips) db.prepare('UPDATE clips SET fingerprint = ? WHERE id = ?').run(await fingerprintFile(c.file), c.clipId);
  search = await searchOver(world);
  mod = search.mod;
}, 120_000);

afterAll(async () => {
  await search?.close();
});

describe('search an editor trusts', () => {
  it('"red close-up": the camera word becomes a filter, only close-ups come back, reddest first', async () => {
    const r = await text('red close-up');
    expect(r.parsed).toEqual({ text: 'red', chips: [{ field: 'shotSize', value: 'close_up', label: 'Close-up', negated: false, phrase: 'close-up' }] });
    expect(r.results.length).toBeGreaterThan(0);
    for (const x of r.results) expect(x.tags.find((t) => t.field === 'shotSize')?.canonical).toBe('close_up');
    expect(r.results[0]!.clipName).toBe('red.mp4');
    const scores = r.results.map((x) => x.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(r.results[0]!.good).toBe(true);
    // The service encoded only "red"; the recent searches show (and run again) what was typed.
    expect(world!.emu.stats().textEncodes['red close-up']).toBeUndefined();
    const recent = await mod.handlers['search.history']({ limit: 5 }, { transport: 'test' });
    expect(recent.queries[0]).toMatchObject({ text: 'red close-up', normalized: 'red' });
    // Excluding it instead: no close-up left.
    const notCu = await text('red not close-up');
    expect(notCu.results.every((x) => x.tags.find((t) => t.field === 'shotSize')?.canonical !== 'close_up')).toBe(true);
  });

  it('"xyzzy" matches nothing well, and says so instead of a confident page', async () => {
    const r = await text('xyzzy');
    expect(r.noGoodMatch).toBe(true);
    expect(r.results.every((x) => !x.good && x.score! < 50)).toBe(true);
    const red = await text('red');
    expect(red.noGoodMatch).toBe(false);
    // One scale for two queries on one library: each query's real match scores well above the other's junk.
    expect(red.results[0]!.score!).toBeGreaterThan(Math.max(...r.results.map((x) => x.score!)));
  });

  it('a duplicated file appears once, with its other location', async () => {
    const r = await text('red');
    const reds = r.results.filter((x) => x.clipId === byName('red').clipId || x.clipId === byName('red-copy').clipId);
    expect(reds).toHaveLength(1);
    expect(reds[0]!.otherLocations).toHaveLength(1);
    expect(reds[0]!.otherLocations[0]!.clipPath).not.toBe(reds[0]!.clipPath);
    // A page of one card, where the copy's own hit is not among the candidates: still listed.
    const one = await textSearch(mod, 'red', { topK: 1 });
    expect(one.results[0]!.otherLocations).toHaveLength(1);
  });

  it('a query of camera words only lists what the filters allow, unscored', async () => {
    const r = await text('close-up');
    expect(r.parsed?.text).toBe('');
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((x) => x.score === null && x.tags.some((t) => t.canonical === 'close_up'))).toBe(true);
  });

  it('an empty box with a facet lists what passes the filter alone, unscored, in library order; with no filter, nothing', async () => {
    const typed = await text('close-up');
    const r = await text('', { tags: { shotSize: ['close_up'] } });
    expect(r.cannotRun).toBeNull();
    expect(r.query).toMatchObject({ text: '', origin: null });
    expect(r.relevance.state).toBe('unscored');
    // The same moments the camera word alone finds: the facet browses as the word filters.
    expect(r.results.map((x) => [x.clipId, x.inFrame])).toEqual(typed.results.map((x) => [x.clipId, x.inFrame]));
    expect(r.results.every((x) => x.score === null && x.tags.some((t) => t.canonical === 'close_up'))).toBe(true);
    expect(r.stats.allowed).toBeGreaterThan(0);
    // Library order: folder, then file name.
    const paths = r.results.map((x) => x.clipPath);
    expect(paths).toEqual([...paths].sort((a, b) => path.dirname(a).localeCompare(path.dirname(b)) || path.basename(a).localeCompare(path.basename(b))));
    // No words, no filter: nothing to search for, and no service call was made for it.
    const before = world!.emu.stats().byEndpoint['POST /video_embedding/encode_text']?.requests ?? 0;
    const none = await text('   ');
    expect(none.results).toEqual([]);
    expect(none.stats.allowed).toBeNull();
    expect(world!.emu.stats().byEndpoint['POST /video_embedding/encode_text']?.requests ?? 0).toBe(before);
  });

  it('find-similar leaves out the source clip\'s own neighbourhood by default', async () => {
    const two = byName('green-then-blue');
    const r = await mod.service.similar({ segmentId: two.segments[0]!.id, topK: 10, filters: {}, exclude: 'neighbourhood' });
    expect(r.results.some((x) => x.clipId === two.clipId)).toBe(false);
    const kept = await mod.service.similar({ segmentId: two.segments[0]!.id, topK: 10, filters: {}, exclude: 'none' });
    expect(kept.results.some((x) => x.clipId === two.clipId)).toBe(true);
  });
});
