import { afterAll, describe, expect, it } from 'vitest';
import { createTagResolutionStore, resolveTag, tagValuesSql, TAG_COLUMNS } from '../../src-main/core/search/tag-resolution-store';
import { tempDir } from '../helpers/paths';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding, putLocalTag, putServiceTags, TEST_SPACE } from '../helpers/search-catalog';
import { searchFacets } from '../../src-main/core/search/search-facets';
import { createSearchFilterStore } from '../../src-main/core/search/search-filter-store';
import { tagsForSegments } from '../../src-main/core/search/segment-tags';
import { canonicalTag } from '../../src-main/core/tags/tag-vocabulary';

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
