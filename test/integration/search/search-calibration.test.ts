import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMethods, type SearchResponse } from '../../../src-shared/contract/search';
import { textSearch, type TextSearchOptions } from '../../helpers/catalog/text-search';
import { makeColourClip, type ClipOptions } from '../../helpers/footage/test-clips';
import { addByUrl } from '../../../src-main/core/service-actions/add-by-url';
import { ServiceClient } from '../../../src-main/core/service';
import { insertClip } from '../../helpers/catalog/search-catalog';
import { emulatedCatalog, probe, searchOver, type EmulatedCatalog, type FixtureClip } from './search-fixture';
import { TEST_SPACE } from '../../helpers/catalog/search-catalog';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import type { SearchModule } from '../../../src-main/core/search/search-module';

/**
 * Issue 24's calibration on the emulator: a score means "this matches". The emulator's embeddings are
 * colour and brightness statistics and its text vocabulary is colour words; anything else it reads as
 * a random direction, which is what gibberish and office jargon are to a video model.
 */

const GIBBERISH = ['qwertyuiop', 'xyzzy plugh', 'asdf jkl semicolon', 'quarterly tax spreadsheet', 'synergy deliverables roadmap', 'invoice reconciliation meeting notes', 'password reset instructions', 'lorem ipsum dolor sit amet'];

/** The library's clips: 2 s at 320x240 unless told otherwise. */
const CLIP: ClipOptions = { seconds: 2, width: 320, height: 240 };

async function clips(dir: string, spec: Array<[name: string, colour: string]>): Promise<FixtureClip[]> {
  return spec.map(([name, colour]) => ({ name, file: makeColourClip(dir, name, colour, CLIP), shots: [{ startS: 0, endS: 2 }] }));
}

/** search.text on one world's search module. */
const textOn = (mod: SearchModule) => (q: string, o?: TextSearchOptions) => textSearch(mod, q, o);

describe('a homogeneous library with one outlier', () => {
  let world: EmulatedCatalog | undefined;
  let close: (() => Promise<void>) | undefined;
  let text: ReturnType<typeof textOn>;

  beforeAll(async () => {
    // Twelve dark clips of slightly different tints, one black, and one saturated magenta clip that
    // stands out from all of them in almost any direction.
    const dark: Array<[string, string]> = ['0x101010', '0x181410', '0x0c1018', '0x141414', '0x1a1a22', '0x20180f', '0x0f1a12', '0x121220', '0x1c1c1c', '0x10141c', '0x181018', '0x161a16'].map((c, i) => [`dark-${i}`, c]);
    world = await emulatedCatalog({
      prefix: 'rs-calibration-',
      key: 'calibration-key',
      emulator: { asyncPendingMs: 5, asyncProcessingMs: 5 },
      footage: async (d) => [
        ...(await clips(path.join(d, 'footage'), [...dark, ['black', '0x000000'], ['magenta', '0xe000e0']])),
        // One long dark clip: fifteen 4 s segments of one shot that all look alike.
        { name: 'long-dark', file: makeColourClip(path.join(d, 'footage'), 'long-dark', '0x0a0a0a', { ...CLIP, seconds: 60 }), shots: [{ startS: 0, endS: 60 }] },
      ],
    });
    const s = await searchOver(world);
    close = s.close;
    text = textOn(s.mod);
  }, 180_000);

  afterAll(async () => {
    await close?.();
  });

  it('the exact match of "black" scores at least 80 although nearly everything is dark', async () => {
    const r = await text('black', { topK: 20 });
    expect(r.relevance.state).toBe('ready');
    const black = r.results.find((x) => x.clipName === 'black.mp4')!;
    expect(black.similarity).toBeGreaterThan(0.99);
    expect(black.score!).toBeGreaterThanOrEqual(80);
    expect(black.good).toBe(true);
  });

  it('a page counts cards: a long clip whose fifteen segments all match fills one card, and the page is still full', async () => {
    const r = await text('black', { topK: 5 });
    expect(r.results).toHaveLength(5);
    expect(new Set(r.results.map((x) => x.clipId)).size).toBe(5);
    const long = r.results.find((x) => x.clipName === 'long-dark.mp4');
    // Its adjacent segments of one shot are one moment.
    expect(long!.more).toHaveLength(0);
    expect(r.page).toMatchObject({ offset: 0, limit: 5, hasMore: true });
    const next = await text('black', { topK: 5, offset: 5 });
    expect(next.results[0]!.rank).toBe(6);
    expect(next.results.some((x) => r.results.some((y) => y.clipId === x.clipId))).toBe(false);
  });

  it('gibberish and unrelated phrases all fall under the floor, however much the magenta clip stands out', async () => {
    let magentaFirst = 0;
    for (const q of GIBBERISH) {
      const r = await text(q);
      expect(r.results.length, q).toBeGreaterThan(0);
      expect(r.noGoodMatch, q).toBe(true);
      expect(r.results.every((x) => !x.good && x.score! < 50), q).toBe(true);
      if (r.results[0]!.clipName === 'magenta.mp4') magentaFirst++;
    }
    // The outlier does come first for some of them by cosine: it is the score that says "no match".
    expect(magentaFirst).toBeGreaterThan(0);
  });

  it('scores compare across queries: each query\'s match scores high on the same scale, and the other query\'s junk low', async () => {
    const black = await text('black');
    const magenta = await text('magenta');
    expect(magenta.results[0]!.clipName).toBe('magenta.mp4');
    expect(magenta.results[0]!.score!).toBeGreaterThanOrEqual(80);
    const scoreOf = (r: SearchResponse, name: string) => r.results.find((x) => x.clipName === name)?.score ?? 0;
    // The same clip for two queries: a match in one, not in the other.
    expect(scoreOf(magenta, 'black.mp4')).toBeLessThan(50);
    expect(scoreOf(black, 'magenta.mp4')).toBeLessThan(50);
    const junk = await text('quarterly tax spreadsheet');
    expect(Math.min(black.results[0]!.score!, magenta.results[0]!.score!)).toBeGreaterThan(Math.max(...junk.results.map((x) => x.score!)) + 30);
  });
});

describe('one clip reached locally, through a collection and by URL', () => {
  let world: EmulatedCatalog | undefined;
  let close: (() => Promise<void>) | undefined;
  let text: ReturnType<typeof textOn>;
  let server: http.Server | undefined;
  let mod: SearchModule | undefined;
  const routes: Record<string, number> = {};

  beforeAll(async () => {
    world = await emulatedCatalog({
      prefix: 'rs-routes-',
      key: 'routes-key',
      emulator: { asyncPendingMs: 5, asyncProcessingMs: 5, syncProcessingMs: 0 },
      footage: (d) => clips(path.join(d, 'footage'), [['red', 'red'], ['blue', 'blue'], ['green', 'green'], ['grey', '0x808080'], ['dark', '0x141414']]),
    });
    const { db, cfg, dir } = world;
    const client = new ServiceClient(cfg);
    routes.local = world.clips.find((c) => c.name === 'red')!.clipId;

    // Through a collection only: another encode of the red picture (another file), catalogued but
    // never indexed here, uploaded to a collection the service searches.
    const viaCollection = makeColourClip(path.join(dir, 'collection'), 'red-upload', 'red', { ...CLIP, width: 352, height: 288, fps: 12 });
    const info = await probe(viaCollection);
    const volumeId = db.prepare('SELECT id FROM volumes LIMIT 1').pluck().get() as number;
    const mount = db.prepare('SELECT mount_path FROM volumes WHERE id = ?').pluck().get(volumeId) as string;
    routes.collection = insertClip(db, { volumeId, relPath: path.relative(mount, viaCollection), durationS: info.durationS, height: info.height, width: info.width });
    const { collectionId } = await client.createCollection('routes', '');
    db.prepare(`INSERT INTO collections (id, region, name, synced_at) VALUES (?, 'asia', 'routes', ?)`).run(collectionId, Date.now());
    const { videoId } = await client.uploadVideoToCollection(collectionId, viaCollection);
    await client.pollVideoStatus(videoId, { initialDelayMs: 20, maxDelayMs: 50, maxWaitMs: 20_000 });
    db.prepare(`INSERT INTO collection_videos (collection_id, region, clip_id, video_id, status, updated_at) VALUES (?, 'asia', ?, ?, 'processed', ?)`).run(collectionId, routes.collection, videoId, Date.now());

    // By URL: the same picture served over HTTP and added the way "Add by URL" adds it.
    const viaUrl = makeColourClip(path.join(dir, 'web'), 'red-web', 'red', { ...CLIP, width: 480, height: 270, fps: 15 });
    server = http.createServer((req, res) => {
      const body = fs.readFileSync(viaUrl);
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': body.length });
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/red-web.mp4`;
    // The server is on this computer: main reads it as when started with --allow-loopback-urls.
    const deps = { db, client: () => client, identity: () => TEST_SPACE, ffprobe: () => ffPath('ffprobe'), ffmpeg: () => ffPath('ffmpeg'), cacheDir: path.join(dir, 'cache'), remote: () => ({ policy: { allowLoopback: true }, spool: { dir: path.join(dir, 'spool') } }) };
    routes.url = (await addByUrl(deps, url, undefined)).clipId;

    const s = await searchOver(world);
    close = s.close;
    mod = s.mod;
    text = textOn(s.mod);
  }, 180_000);

  afterAll(async () => {
    server?.close();
    await close?.();
  });

  it('find-similar uses the same scale: the near twin (another file of the same picture) scores high, other colours do not', async () => {
    const red = world!.clips.find((c) => c.name === 'red')!;
    const r = searchMethods['search.similar'].result.parse(
      await mod!.handlers['search.similar'](searchMethods['search.similar'].args.parse({ segmentId: red.segments[0]!.id, topK: 10 }), { transport: 'test' }),
    );
    expect(r.results.some((x) => x.clipId === red.clipId)).toBe(false);
    const twin = r.results.find((x) => x.clipId === routes.url)!;
    expect(twin.score!).toBeGreaterThanOrEqual(80);
    expect(twin.good).toBe(true);
    for (const name of ['blue', 'green', 'grey', 'dark']) {
      const other = r.results.find((x) => x.clipId === world!.clips.find((c) => c.name === name)!.clipId);
      if (other) expect(other.good, name).toBe(false);
    }
    expect(r.noGoodMatch).toBe(false);
  });

  it('scores the three within 10 points, each a match, each its own card', async () => {
    const r = await text('red', { collections: true, topK: 20 });
    const card = (clipId: number) => r.results.find((x) => x.clipId === clipId);
    const local = card(routes.local!);
    const coll = card(routes.collection!);
    const url = card(routes.url!);
    expect(local?.sources).toContain('local');
    expect(coll?.sources).toEqual(['collection']);
    expect(url).toBeDefined();
    const scores = [local!.score!, coll!.score!, url!.score!];
    expect(Math.max(...scores) - Math.min(...scores), JSON.stringify(scores)).toBeLessThanOrEqual(10);
    for (const x of [local!, coll!, url!]) expect(x.good).toBe(true);
    // And the others of the library are not red.
    for (const x of r.results.filter((y) => !Object.values(routes).includes(y.clipId))) expect(x.good, x.clipName).toBe(false);
  });
});
