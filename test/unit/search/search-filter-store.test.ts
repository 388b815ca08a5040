import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { createSearchFilterStore, hasFilters } from '../../../src-main/core/search/query/search-filter-store';
import { m0014CanonicalTags } from '../../../src-main/core/catalog/migrations/0014-canonical-tags';
import { searchFiltersSchema, type SearchFiltersIn } from '../../../src-shared/contract/search';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding, putLocalTag, putServiceTags, TEST_SPACE } from '../../helpers/catalog/search-catalog';
import { tempDir } from '../../helpers/paths';

/**
 * Two volumes; clips with known durations, heights, dates and folders; segments with service and
 * local tags spelled differently. Each filter is checked against the ids it must return.
 */
let db: CatalogDb;
let cleanup: () => void;
const seg: Record<string, number> = {};
const clip: Record<string, number> = {};
const root = path.resolve('/footage');
const usb = path.resolve('/media/usb');

beforeAll(() => {
  const t = tempDir('rs-filters-');
  cleanup = t.cleanup;
  db = openTestCatalog(t.dir);
  const v1 = insertVolume(db, root);
  const v2 = insertVolume(db, usb);
  const DAY = 86_400_000;
  const specs = [
    { name: 'beach', vol: v1, rel: 'trip/beach.mp4', dur: 12, h: 1080, mtime: 10 * DAY, created: 100 * DAY },
    { name: 'city', vol: v1, rel: 'trip/city/night.mp4', dur: 40, h: 720, mtime: 20 * DAY, created: 100 * DAY },
    { name: 'office', vol: v1, rel: 'work/office.mov', dur: 5, h: 2160, mtime: 30 * DAY, created: 200 * DAY },
    { name: 'drone', vol: v2, rel: 'drone.mp4', dur: 90, h: 1080, mtime: 40 * DAY, created: 200 * DAY },
  ];
  let axis = 0;
  for (const s of specs) {
    clip[s.name] = insertClip(db, { volumeId: s.vol, relPath: s.rel, durationS: s.dur, height: s.h, width: Math.round((s.h * 16) / 9), mtimeMs: s.mtime, createdAt: s.created });
    const shot = insertShot(db, clip[s.name]!, 0, 0, s.dur);
    for (let i = 0; i < 2; i++) {
      const id = insertSegment(db, { clipId: clip[s.name]!, shotId: shot, chunkIdx: i, startS: i * 4, endS: i * 4 + 4 });
      seg[`${s.name}${i}`] = id;
      putEmbedding(db, id, axisVector(8, axis++));
    }
  }
  // Service tags per segment, spelled as a service might; local tags per shot.
  putServiceTags(db, seg.beach0!, { shotSize: 'Wide', cameraMovement: 'Pan Right', shootingAngle: 'eye level' });
  putServiceTags(db, seg.beach1!, { shotSize: 'close-up', cameraMovement: 'static' });
  putServiceTags(db, seg.city0!, { shotSize: 'CLOSE UP', shootingAngle: 'Low-Angle' });
  putServiceTags(db, seg.drone0!, { shotSize: 'extreme wide', cameraMovement: 'static', shootingAngle: "bird's eye" });
  const shotOf = (name: string) => db.prepare('SELECT id FROM shots WHERE clip_id = ?').pluck().get(clip[name]) as number;
  putLocalTag(db, shotOf('office'), 'shot_size', 'close-up');
  putLocalTag(db, shotOf('beach'), 'shot_size', 'wide');
  putLocalTag(db, shotOf('drone'), 'camera_movement', 'pan right');
  // Rows spelled as before the vocabulary, brought onto it as migration 0014 does.
  m0014CanonicalTags.up(db);
  // A segment embedded by another model never passes: it is not in this space's index.
  const other = insertSegment(db, { clipId: clip.beach!, shotId: shotOf('beach'), chunkIdx: 9, startS: 8, endS: 12 });
  putEmbedding(db, other, axisVector(8, 0), { model: 'other-model', region: 'asia' });
});

afterAll(() => {
  db?.close();
  cleanup?.();
});

function allowed(f: SearchFiltersIn): string[] | null {
  const set = createSearchFilterStore(db).allowedSegmentIds(searchFiltersSchema.parse(f), TEST_SPACE);
  if (set === null) return null;
  const byId = new Map(Object.entries(seg).map(([k, v]) => [v, k]));
  return [...set].map((id) => byId.get(id) ?? `?${id}`).sort();
}

describe('search filters', () => {
  it('no filter (or empty lists) means no allow-set: the whole index is searched', () => {
    expect(allowed({})).toBeNull();
    expect(allowed({ tags: { shotSize: [] } })).toBeNull();
    expect(hasFilters(searchFiltersSchema.parse({ durationS: {} }))).toBe(false);
  });

  it('matches tag values by canonical form whatever the stored or typed spelling', () => {
    expect(allowed({ tags: { shotSize: ['close_up'], source: 'service' } })).toEqual(['beach1', 'city0']);
    expect(allowed({ tags: { shotSize: ['Close-Up'], source: 'service' } })).toEqual(['beach1', 'city0']);
    expect(allowed({ tags: { shootingAngle: ['low_angle'] } })).toEqual(['city0']);
    expect(allowed({ tags: { shotSize: ['CU'], source: 'service' } })).toEqual(['beach1', 'city0']);
    expect(allowed({ tags: { shootingAngle: ['overhead'] } })).toEqual(['drone0']);
  });

  it('reads local tags per shot, service tags per segment, or either', () => {
    // Local: a shot tag covers every segment of the shot.
    expect(allowed({ tags: { shotSize: ['close_up'], source: 'local' } })).toEqual(['office0', 'office1']);
    // Either: the one resolved tag per segment. beach1's service says close-up without a confidence
    // (0.5), its shot's local tag says wide at 0.8: wide wins, so beach1 is not a close-up.
    expect(allowed({ tags: { shotSize: ['close_up'], source: 'either' } })).toEqual(['city0', 'office0', 'office1']);
    expect(allowed({ tags: { shotSize: ['wide'], source: 'either' } })).toEqual(['beach0', 'beach1']);
    expect(allowed({ tags: { cameraMovement: ['pan_right'], source: 'service' } })).toEqual(['beach0']);
    expect(allowed({ tags: { cameraMovement: ['pan_right'], source: 'local' } })).toEqual(['drone0', 'drone1']);
    // No local analysis measures the angle: asking local-only for it matches nothing.
    expect(allowed({ tags: { shootingAngle: ['low_angle'], source: 'local' } })).toEqual([]);
  });

  it('leaves out excluded values; a segment without the tag stays', () => {
    expect(allowed({ tags: { exclude: { shotSize: ['close_up'] } } })).toEqual(['beach0', 'beach1', 'city1', 'drone0', 'drone1']);
    expect(allowed({ tags: { shotSize: ['wide', 'close_up'], exclude: { cameraMovement: ['pan_right'] } } })).toEqual(['beach1', 'city0', 'office0', 'office1']);
  });

  it('ORs values within a field and ANDs across fields', () => {
    expect(allowed({ tags: { shotSize: ['wide', 'extreme_wide'], source: 'service' } })).toEqual(['beach0', 'drone0']);
    expect(allowed({ tags: { shotSize: ['wide', 'extreme_wide'], cameraMovement: ['static'], source: 'service' } })).toEqual(['drone0']);
    expect(allowed({ tags: { shotSize: ['no_such_value'] } })).toEqual([]);
  });

  it('filters on clip duration, height and date', () => {
    expect(allowed({ durationS: { min: 10, max: 45 } })).toEqual(['beach0', 'beach1', 'city0', 'city1']);
    expect(allowed({ minHeight: 1080 })).toEqual(['beach0', 'beach1', 'drone0', 'drone1', 'office0', 'office1']);
    const DAY = 86_400_000;
    expect(allowed({ date: { field: 'modified', from: 15 * DAY, to: 35 * DAY } })).toEqual(['city0', 'city1', 'office0', 'office1']);
    expect(allowed({ date: { field: 'imported', from: 150 * DAY } })).toEqual(['drone0', 'drone1', 'office0', 'office1']);
  });

  it('filters on a folder inside a volume, a whole volume, or a folder above a mount point', () => {
    expect(allowed({ folder: path.join(root, 'trip') })).toEqual(['beach0', 'beach1', 'city0', 'city1']);
    expect(allowed({ folder: path.join(root, 'trip', 'city') })).toEqual(['city0', 'city1']);
    // "trip" must not match "trip2" or "tripod": the range is on whole path components.
    expect(allowed({ folder: path.join(root, 'tri') })).toEqual([]);
    expect(allowed({ folder: usb })).toEqual(['drone0', 'drone1']);
    expect(allowed({ folder: path.resolve('/media') })).toEqual(['drone0', 'drone1']);
    expect(allowed({ folder: path.resolve('/elsewhere') })).toEqual([]);
  });

  it('combines clip and tag filters', () => {
    expect(allowed({ folder: path.join(root, 'trip'), tags: { shotSize: ['close_up'], source: 'service' }, minHeight: 1000 })).toEqual(['beach1']);
    expect(allowed({ folder: path.join(root, 'trip'), tags: { shotSize: ['wide'] }, minHeight: 1000 })).toEqual(['beach0', 'beach1']);
  });

  it('checks whole-clip (collection) hits against the same filters', () => {
    const all = Object.values(clip);
    const f = (x: SearchFiltersIn) => [...createSearchFilterStore(db).passingClips(searchFiltersSchema.parse(x), all)].sort((a, b) => a - b);
    expect(f({})).toEqual([...all].sort((a, b) => a - b));
    expect(f({ minHeight: 2000 })).toEqual([clip.office]);
    // Tag filters need a matching segment in the clip.
    expect(f({ tags: { shotSize: ['extreme_wide'] } })).toEqual([clip.drone]);
  });

  it('compiles a filter shape once: a refined value reuses the statement, a new shape compiles its own', () => {
    const prepare = vi.spyOn(db, 'prepare');
    try {
      const store = createSearchFilterStore(db);
      const compiledAtStart = prepare.mock.calls.length;
      const ids = (f: SearchFiltersIn) => [...store.allowedSegmentIds(searchFiltersSchema.parse(f), TEST_SPACE)!].sort((a, b) => a - b);
      const segsOf = (...names: string[]) => names.flatMap((n) => [seg[`${n}0`]!, seg[`${n}1`]!]).sort((a, b) => a - b);
      expect(ids({ durationS: { min: 30 } })).toEqual(segsOf('city', 'drone'));
      expect(ids({ durationS: { min: 60 } })).toEqual(segsOf('drone'));
      expect(ids({ durationS: { min: 1 } })).toEqual(segsOf('beach', 'city', 'office', 'drone'));
      expect(prepare.mock.calls.length - compiledAtStart).toBe(1);
      expect(ids({ durationS: { min: 30, max: 60 } })).toEqual(segsOf('city'));
      expect(ids({ durationS: { min: 10, max: 20 } })).toEqual(segsOf('beach'));
      expect(prepare.mock.calls.length - compiledAtStart).toBe(2);
      const facets = () => store.facetCounts('shotSize', 'either', TEST_SPACE);
      expect(facets()).toEqual(facets());
      expect(prepare.mock.calls.length - compiledAtStart).toBe(3);
    } finally {
      prepare.mockRestore();
    }
  });
});
