import { afterEach, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src-main/core/catalog/migrate';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { searchFacets } from '../../../src-main/core/search/query/search-facets';
import { createSearchFilterStore } from '../../../src-main/core/search/query/search-filter-store';
import { tagsForSegments } from '../../../src-main/core/search/results/segment-tags';
import { createTagResolutionStore } from '../../../src-main/core/search/query/tag-resolution-store';
import { searchFiltersSchema } from '../../../src-shared/contract/search';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, putEmbedding, putLocalTag, putServiceTags, TEST_SPACE } from '../../helpers/catalog/search-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** One service's spellings per segment, as catalogs before migration 0014 stored them. */
const OLD_SERVICE_TAGS = [
  { shotSize: 'EWS', cameraMovement: 'static', shootingAngle: 'eye_level' },
  { shotSize: 'Extreme Wide Shot', cameraMovement: 'Static Shot', shootingAngle: 'Eye-Level' },
  { shotSize: 'extreme_wide', cameraMovement: 'hand-held', shootingAngle: 'High Angle' },
  { shotSize: 'medium shot', cameraMovement: 'Tracking Shot', shootingAngle: 'high_angle' },
  { shotSize: 'MS', cameraMovement: 'tracking', shootingAngle: "bird's eye" },
  { shotSize: 'medium', cameraMovement: 'handheld', shootingAngle: 'Over-the-shoulder' },
];

describe('migration 0014: tag values onto the canonical vocabulary', () => {
  it('rewrites service and local tags of an older catalog so facets merge and filters find every shot', () => {
    const { file, old } = catalogAtVersion(13, cleanups);
    const vol = insertVolume(old, '/media/card');
    const segs: number[] = [];
    const shots: number[] = [];
    OLD_SERVICE_TAGS.forEach((tags, i) => {
      const clip = insertClip(old, { volumeId: vol, relPath: `A00${i}.mov`, durationS: 4 });
      const shot = insertShot(old, clip, 0, 0, 4);
      shots.push(shot);
      const seg = insertSegment(old, { clipId: clip, shotId: shot, startS: 0, endS: 4 });
      putEmbedding(old, seg, axisVector(8, i));
      putServiceTags(old, seg, tags);
      segs.push(seg);
    });
    // The local analysis wrote its own words before the vocabulary.
    putLocalTag(old, shots[0]!, 'shot_size', 'close-up');
    putLocalTag(old, shots[1]!, 'shot_size', 'close_up');
    putLocalTag(old, shots[2]!, 'camera_movement', 'pan left');
    const distinctBefore = old.prepare('SELECT COUNT(DISTINCT shot_size) FROM service_tags').pluck().get();
    expect(distinctBefore).toBe(6);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(14);

    const facets = searchFacets(createSearchFilterStore(db), TEST_SPACE);
    // [label, segments (one resolved tag each), service says, local says]
    const counts = (f: typeof facets.shotSize) => Object.fromEntries(f.map((v) => [v.canonical, [v.label, v.segments, v.service, v.local]]));
    // Segments 0 and 1: the service says extreme wide (no confidence: 0.5), the local close-up (0.8) wins.
    expect(counts(facets.shotSize)).toEqual({ extreme_wide: ['Extreme wide', 1, 3, 0], medium: ['Medium', 3, 3, 0], close_up: ['Close-up', 2, 0, 2] });
    expect(counts(facets.cameraMovement)).toEqual({ static: ['Static', 2, 2, 0], handheld: ['Handheld', 1, 2, 0], tracking: ['Tracking', 2, 2, 0], pan_left: ['Pan left', 1, 0, 1] });
    // A value outside the vocabulary stays, as its own facet.
    expect(counts(facets.shootingAngle)).toEqual({
      eye_level: ['Eye level', 2, 2, 0],
      high_angle: ['High angle', 2, 2, 0],
      overhead: ['Overhead', 1, 1, 0],
      over_the_shoulder: ['Over the shoulder', 1, 1, 0],
    });

    const allowed = (tags: Record<string, unknown>) => [...(createSearchFilterStore(db).allowedSegmentIds(searchFiltersSchema.parse({ tags }), TEST_SPACE) ?? [])].sort((a, b) => a - b);
    expect(allowed({ shotSize: ['extreme_wide'], source: 'service' })).toEqual(segs.slice(0, 3));
    expect(allowed({ cameraMovement: ['handheld'], source: 'service' })).toEqual([segs[2], segs[5]]);
    expect(allowed({ shotSize: ['close_up'], source: 'local' })).toEqual(segs.slice(0, 2));

    // Cards show the vocabulary's label; raw_json keeps what the service sent.
    const cardTags = tagsForSegments(createTagResolutionStore(db), [segs[1]!]).get(segs[1]!)!;
    expect(cardTags.find((x) => x.field === 'shotSize')).toMatchObject({ value: 'Close-up', canonical: 'close_up', source: 'local', other: { value: 'Extreme wide', canonical: 'extreme_wide', source: 'service' } });
    expect(cardTags.find((x) => x.field === 'shootingAngle')).toMatchObject({ value: 'Eye level', canonical: 'eye_level', source: 'service', other: null });
    expect(JSON.parse(db.prepare('SELECT raw_json FROM service_tags WHERE segment_id = ?').pluck().get(segs[1]) as string)).toMatchObject({ shotSize: 'Extreme Wide Shot' });
  });
});

/** Stored service answers in the shapes a service may send, and the confidences 0015 reads from each [shot size, movement, angle]. */
const ANSWERS: ReadonlyArray<readonly [unknown, readonly [number | null, number | null, number | null]]> = [
  [{ shot_size: { label: 'CU', confidence: 0.9 }, camera_movement: 'static', shooting_angle: { value: 'high', score: 85 } }, [0.9, null, 0.85]],
  [{ shotSize: { close_up: 0.7, wide: 0.2 } }, [0.7, null, null]],
  // Per-segment values: "CU" and "Close-Up Shot" are one framing (2 s) and outweigh "WS" (1.5 s).
  [{ shot_size: [{ start: 0, end: 1, label: 'CU', confidence: 0.6 }, { start: 1, end: 2, label: 'Close-Up Shot', confidence: 0.8 }, { start: 2, end: 3.5, label: 'WS', confidence: 0.9 }] }, [0.7, null, null]],
  [{ segments: [{ start: 0, end: 4, camera_movement: { label: 'pan left', confidence: 0.4 } }, { start: 4, end: 5, camera_movement: { label: 'static', confidence: 0.9 } }] }, [null, 0.4, null]],
  [[{ category: 'shot size', label: 'wide', confidence: '55' }], [0.55, null, null]],
  [{ shooting_angle: [{ label: 'low', confidence: 0.3 }, { label: 'eye level', confidence: 0.6 }] }, [null, null, 0.6]],
  [{ result: { tags: { shot_size: { label: 'MS', probability: 0.66 } } } }, [0.66, null, null]],
  [JSON.stringify({ shot_size: { label: 'wide', conf: 0.5 } }), [0.5, null, null]],
  [{ cinematography: { camera: { movement: { value: 'Hand-held', p: 0.77 } } }, segments: [{ start: 0, end: 2, shot_size: 'CU' }, { start: 2, end: 3, shot_size: { label: 'close up', confidence: 0.4 } }] }, [0.4, 0.77, null]],
];

describe('migration 0015: service confidences as columns, people out of shot sizes', () => {
  it('reads each stored answer\'s confidences as the service parser of its time did, and drops the local "no person" shot size', () => {
    const { file, old } = catalogAtVersion(14, cleanups);
    const vol = insertVolume(old, '/media/card');
    const segs = ANSWERS.map(([raw], i) => {
      const clip = insertClip(old, { volumeId: vol, relPath: `B00${i}.mov`, durationS: 4 });
      const shot = insertShot(old, clip, 0, 0, 4);
      const seg = insertSegment(old, { clipId: clip, shotId: shot, startS: 0, endS: 4 });
      putServiceTags(old, seg, { shotSize: 'x', raw });
      return { seg, shot };
    });
    // An answer that is not JSON at all keeps no confidence.
    old.prepare('UPDATE service_tags SET raw_json = ? WHERE segment_id = ?').run('not json', segs[1]!.seg);
    putLocalTag(old, segs[0]!.shot, 'shot_size', 'no_person');
    putLocalTag(old, segs[0]!.shot, 'camera_movement', 'static');
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const got = db.prepare('SELECT segment_id, shot_size_conf, camera_movement_conf, shooting_angle_conf FROM service_tags').all() as {
      segment_id: number;
      shot_size_conf: number | null;
      camera_movement_conf: number | null;
      shooting_angle_conf: number | null;
    }[];
    const bySeg = new Map(got.map((r) => [r.segment_id, [r.shot_size_conf, r.camera_movement_conf, r.shooting_angle_conf]]));
    ANSWERS.forEach(([, want], i) => {
      const row = bySeg.get(segs[i]!.seg)!.map((v) => (v === null ? null : Math.round(v * 1e6) / 1e6));
      expect(row, JSON.stringify(ANSWERS[i]![0])).toEqual(i === 1 ? [null, null, null] : want);
    });
    expect(db.prepare('SELECT category, value FROM shot_local_tags WHERE shot_id = ?').all(segs[0]!.shot)).toEqual([{ category: 'camera_movement', value: 'static' }]);
  });
});
