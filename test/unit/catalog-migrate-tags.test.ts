import { afterEach, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src-main/core/catalog/migrate';
import { openCatalog } from '../../src-main/core/catalog/open-catalog';
import { searchFacets } from '../../src-main/core/search/search-facets';
import { createSearchFilterStore } from '../../src-main/core/search/search-filter-store';
import { tagsForSegments } from '../../src-main/core/search/segment-tags';
import { createTagResolutionStore } from '../../src-main/core/search/tag-resolution-store';
import { searchFiltersSchema } from '../../src-shared/contract/search';
import { catalogAtVersion } from '../helpers/old-catalog';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, putEmbedding, putLocalTag, putServiceTags, TEST_SPACE } from '../helpers/search-catalog';

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
