import { afterAll, describe, expect, it } from 'vitest';
import { createTagResolutionStore, resolveTag, tagValuesSql, TAG_COLUMNS } from '../../../src-main/core/search/query/tag-resolution-store';
import { tempDir } from '../../helpers/paths';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding, putLocalTag, putServiceTags, TEST_SPACE } from '../../helpers/catalog/search-catalog';
import { searchFacets } from '../../../src-main/core/search/query/search-facets';
import { createSearchFilterStore } from '../../../src-main/core/search/query/search-filter-store';
import { clipTagSpans, tagsForSegments } from '../../../src-main/core/search/results/segment-tags';
import { canonicalTag } from '../../../src-main/core/tags/tag-vocabulary';

describe('tags that agree: one rule, in TypeScript and in SQL', () => {
  const tmp = tempDir('rs-tag-resolution-');
  afterAll(() => tmp.cleanup());

  it('decides by the documented rule', () => {
    expect(resolveTag({ value: 'wide', confidence: 0.9 }, null)).toEqual({ value: 'wide', confidence: 0.9, source: 'service' });
    expect(resolveTag(null, { value: 'wide', confidence: 0.4 })).toEqual({ value: 'wide', confidence: 0.4, source: 'local' });
    expect(resolveTag({ value: 'wide', confidence: 0.3 }, { value: 'wide', confidence: 0.6 })).toEqual({ value: 'wide', confidence: 0.6, source: 'both' });
    expect(resolveTag({ value: 'wide', confidence: 0.7 }, { value: 'close_up', confidence: 0.6 })).toMatchObject({ value: 'wide', source: 'service' });
    expect(resolveTag({ value: 'wide', confidence: 0.5 }, { value: 'close_up', confidence: 0.6 })).toMatchObject({ value: 'close_up', source: 'local' });
    // Without a confidence the service counts 0.5; a tie goes to the service.
    expect(resolveTag({ value: 'wide', confidence: null }, { value: 'close_up', confidence: 0.5 })).toMatchObject({ value: 'wide', source: 'service' });
    expect(resolveTag({ value: 'wide', confidence: null }, { value: 'close_up', confidence: 0.51 })).toMatchObject({ value: 'close_up', source: 'local' });
    expect(resolveTag(null, null)).toBeNull();
  });

  it('the SQL that filters and facets read gives the same value as the TypeScript the cards show, row by row', () => {
    const db = openTestCatalog(tmp.dir);
    const vol = insertVolume(db, '/media/x');
    const cases: { service: [string, number | null] | null; local: [string, number] | null }[] = [];
    const values = ['wide', 'close_up', 'medium'];
    const confs = [null, 0.2, 0.5, 0.8];
    for (const sv of [null, ...values]) for (const sc of confs) for (const lv of [null, ...values]) for (const lc of [0.3, 0.5, 0.9]) {
      cases.push({ service: sv ? [sv, sc] : null, local: lv ? [lv, lc] : null });
    }
    const segs: number[] = [];
    cases.forEach((c, i) => {
      const clip = insertClip(db, { volumeId: vol, relPath: `c${i}.mov`, durationS: 4 });
      const shot = insertShot(db, clip, 0, 0, 4);
      const seg = insertSegment(db, { clipId: clip, shotId: shot, startS: 0, endS: 4 });
      segs.push(seg);
      if (c.service) db.prepare('INSERT INTO service_tags (segment_id, raw_json, shot_size, shot_size_conf, created_at) VALUES (?, ?, ?, ?, 0)').run(seg, '{}', c.service[0], c.service[1]);
      if (c.local) db.prepare("INSERT INTO shot_local_tags (shot_id, category, value, confidence) VALUES (?, 'shot_size', ?, ?)").run(shot, c.local[0], c.local[1]);
    });
    expect(TAG_COLUMNS.shotSize.confidence).toBe('shot_size_conf');
    const sql = new Map((db.prepare(tagValuesSql('shotSize', 'either')).all() as { segment_id: number; value: string }[]).map((r) => [r.segment_id, r.value]));
    cases.forEach((c, i) => {
      const ts = resolveTag(c.service && { value: c.service[0], confidence: c.service[1] }, c.local && { value: c.local[0], confidence: c.local[1] });
      expect(sql.get(segs[i]!) ?? null, JSON.stringify(c)).toBe(ts?.value ?? null);
    });
    expect(cases.length).toBe(192);
    db.close();
  });
});

describe("every source's opinion stays reachable", () => {
  const tmp = tempDir('rs-tag-sources-');
  afterAll(() => tmp.cleanup());

  it('a service value that lost every decision is still a facet value and a filter under its source, and the card names the disagreement', () => {
    const db = openTestCatalog(tmp.dir);
    const vol = insertVolume(db, '/media/y');
    const segs: number[] = [];
    // An independent server spells it three ways; each is the vocabulary's tilt_up. The local
    // analysis, more confident, says tilt down on every one of these shots.
    for (const [i, spelling] of ['Tilt Up', 'tilt-up', 'TILT UP'].entries()) {
      const clip = insertClip(db, { volumeId: vol, relPath: `t${i}.mov`, durationS: 4 });
      const shot = insertShot(db, clip, 0, 0, 4);
      const seg = insertSegment(db, { clipId: clip, shotId: shot, startS: 0, endS: 4 });
      putEmbedding(db, seg, axisVector(8, i));
      putServiceTags(db, seg, { cameraMovement: canonicalTag('cameraMovement', spelling), raw: { camera_movement: spelling } });
      db.prepare('UPDATE service_tags SET camera_movement_conf = 0.4 WHERE segment_id = ?').run(seg);
      putLocalTag(db, shot, 'camera_movement', 'tilt_down', 0.9);
      segs.push(seg);
    }
    const facets = searchFacets(createSearchFilterStore(db), TEST_SPACE);
    const row = (v: string) => facets.cameraMovement.find((f) => f.canonical === v);
    expect(row('tilt_down')).toMatchObject({ segments: 3, local: 3, service: 0 });
    expect(row('tilt_up')).toMatchObject({ label: 'Tilt up', segments: 0, service: 3, local: 0 });
    const filter = (source: 'service' | 'either') => createSearchFilterStore(db).allowedSegmentIds({ tags: { source, cameraMovement: ['tilt up'] } }, TEST_SPACE)!;
    expect([...filter('service')].sort()).toEqual([...segs].sort());
    expect(filter('either').size).toBe(0);
    const tags = tagsForSegments(createTagResolutionStore(db), segs);
    for (const seg of segs) {
      expect(tags.get(seg)!.find((t) => t.field === 'cameraMovement')).toMatchObject({ canonical: 'tilt_down', source: 'local', other: { canonical: 'tilt_up', source: 'service' } });
    }
    db.close();
  });
});

describe('the tags along a clip (the viewer overlay and the export markers)', () => {
  const tmp = tempDir('rs-tag-spans-');
  afterAll(() => tmp.cleanup());

  it("lists the indexed segments of the clip's profile with their resolved tags, then the shots no segment covers with their local tags, in time order", () => {
    const db = openTestCatalog(tmp.dir);
    const vol = insertVolume(db, '/media/z');
    const clip = insertClip(db, { volumeId: vol, relPath: 'spans.mov', durationS: 12 });
    const [a, b, c] = [insertShot(db, clip, 0, 0, 4), insertShot(db, clip, 1, 4, 8), insertShot(db, clip, 2, 8, 12)];
    // Shot a: an older profile's segment (embedded), the current profile's tagged segment, and one the service has not answered yet.
    const old = insertSegment(db, { clipId: clip, shotId: a, startS: 0, endS: 4, profileId: 'p1' });
    putEmbedding(db, old, axisVector(8, 1));
    const seg = insertSegment(db, { clipId: clip, shotId: a, chunkIdx: 0, startS: 0, endS: 2, profileId: 'p2' });
    putServiceTags(db, seg, { shotSize: 'wide' });
    insertSegment(db, { clipId: clip, shotId: a, chunkIdx: 1, startS: 2, endS: 4, profileId: 'p2' });
    putLocalTag(db, a, 'shot_size', 'close_up', 0.3);
    // Shot b: local tags only (the most confident of a category wins) and two faces.
    putLocalTag(db, b, 'shot_size', 'wide', 0.6);
    putLocalTag(db, b, 'shot_size', 'medium', 0.9);
    putLocalTag(db, b, 'camera_movement', 'static', 0.7);
    db.prepare(
      `INSERT INTO shot_analysis (shot_id, profile_id, face_model, frames_sampled, frames_with_faces, max_faces, motion_steps, motion_valid_steps, analyzed_at)
       VALUES (?, 'p2', 'yunet.onnx', 8, 8, 2, 0, 0, 0)`,
    ).run(b);
    const tags = createTagResolutionStore(db);
    const brief = (spans: ReturnType<typeof clipTagSpans>) =>
      spans.map((s) => ({ segmentId: s.segmentId, shotId: s.shotId, startS: s.startS, tags: s.tags.map((t) => `${t.field}=${t.canonical}/${t.source}${t.other ? `≠${t.other.canonical}` : ''}`) }));

    db.prepare("UPDATE clips SET indexed_profile = 'p2' WHERE id = ?").run(clip);
    expect(brief(clipTagSpans(tags, clip))).toEqual([
      { segmentId: seg, shotId: a, startS: 0, tags: ['shotSize=wide/service≠close_up'] },
      { segmentId: null, shotId: b, startS: 4, tags: ['shotSize=medium/local', 'cameraMovement=static/local', 'people=two_people/local'] },
      { segmentId: null, shotId: c, startS: 8, tags: [] },
    ]);
    // Before a profile is recorded, every segment the service answered counts.
    db.prepare('UPDATE clips SET indexed_profile = NULL WHERE id = ?').run(clip);
    expect(brief(clipTagSpans(tags, clip)).map((s) => s.segmentId)).toEqual([old, seg, null, null]);
    expect(clipTagSpans(tags, clip + 1)).toEqual([]);
    db.close();
  });
});
