import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { searchFacets } from '../../../src-main/core/search/query/search-facets';
import { createSearchFilterStore } from '../../../src-main/core/search/query/search-filter-store';
import { TAG_VOCABULARY } from '../../../src-main/core/tags/tag-vocabulary';
import type { TagField } from '../../../src-shared/contract/search';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/server';
import type { TagVocabularyStyle } from '../../emulator/vocabulary';
import { mediaFile } from '../../helpers/paths';
import { IndexingPipeline, TEST_KEY, testPipelineOptions, testServiceAccess, waitUntil } from '../fixtures/pipeline-harness';
import { expectFullyIndexed, preparedTemplate } from '../fixtures/pipeline-suite';

const CLIPS = ['intel_asl_thanks.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4'];
const settled = (p: IndexingPipeline) => p.queue.isIdle() && p.networkState().open;
const COLUMNS: [string, TagField][] = [
  ['shot_size', 'shotSize'],
  ['camera_movement', 'cameraMovement'],
  ['shooting_angle', 'shootingAngle'],
];
const ids = (f: TagField) => new Set(TAG_VOCABULARY[f].map((e) => e.id));

/**
 * A service that spells tags in another taxonomy, and one that fails tasks for reasons of its own
 * or of the input: the whole library goes through every stage against the emulator.
 */
describe('indexing pipeline: a service that chose differently', () => {
  const template = preparedTemplate('rs-pipeline-tolerance-', CLIPS.map(mediaFile));
  const open: { db: CatalogDb; emu: EmulatorHandle; pipeline: IndexingPipeline }[] = [];

  afterEach(async () => {
    for (const f of open.splice(0)) {
      await f.pipeline.stop();
      f.db.close();
      await f.emu.close();
    }
  });

  async function run(emuOpts: EmulatorOptions, over: Parameters<typeof testPipelineOptions>[3] = {}) {
    const { dir, db } = template.copy();
    const emu = await startEmulator({ keys: [TEST_KEY], asyncPendingMs: 5, asyncProcessingMs: 10, ...emuOpts });
    const service = testServiceAccess(emu.url);
    const pipeline = new IndexingPipeline(testPipelineOptions(db, dir, service, { events: undefined, ...over }));
    const f = { db, emu, pipeline, space: service.identity() };
    open.push(f);
    pipeline.start();
    return f;
  }

  const styles: [TagVocabularyStyle, NonNullable<EmulatorOptions['tagShape']>][] = [
    ['abbreviation', 'labeled'],
    ['long', 'segments'],
    ['movieshots', 'segment-list'],
    ['fcp', 'title'],
  ];

  it.each(styles)('every tag of the three fields lands on the canonical vocabulary: %s values, %s shape', async (style, shape) => {
    const f = await run({ tagVocabulary: style, tagShape: shape });
    await waitUntil(() => settled(f.pipeline), 90_000, 'the run');
    expect(f.pipeline.queue.list({ states: ['failed'] }).map((j) => `${j.stage}: ${j.lastErrorMessage}`)).toEqual([]);
    expectFullyIndexed(f.db, CLIPS.length);

    const rows = f.db.prepare('SELECT raw_json, shot_size, camera_movement, shooting_angle FROM service_tags').all() as Record<string, string | null>[];
    expect(rows.length).toBeGreaterThan(0);
    let spelledOtherwise = 0;
    for (const r of rows) {
      for (const [col, field] of COLUMNS) {
        expect(ids(field), `${col} = ${r[col]}`).toContain(r[col]);
        // What the service sent is kept: in this style it is not the id itself.
        if (!r.raw_json!.includes(`"${r[col]}"`)) spelledOtherwise++;
      }
    }
    expect(spelledOtherwise).toBeGreaterThan(0);
    // One chip per meaning, whatever the spelling.
    const facets = searchFacets(createSearchFilterStore(f.db), f.space);
    for (const [, field] of COLUMNS) {
      const values = facets[field].filter((v) => v.service > 0).map((v) => v.canonical);
      expect(values.length).toBeGreaterThan(0);
      expect(new Set(values).size).toBe(values.length);
      for (const v of values) expect(ids(field)).toContain(v);
    }
  });

  it('a task the service failed with "model timeout" is sent again later, and the clip is indexed', async () => {
    // No immediate resubmission: the first failure goes straight to "retry later".
    const f = await run({ asyncFailureRate: 1, asyncFailureMessage: 'model timeout' }, { maxResubmits: 0, backoff: { baseMs: 1500, maxMs: 3000 } });
    await waitUntil(() => f.pipeline.queue.list({ stages: ['poll'] }).some((j) => j.lastErrorKind === 'upstream'), 60_000, 'a poll job waiting to retry');
    const waiting = f.pipeline.queue.list({ stages: ['poll'] }).find((j) => j.lastErrorKind === 'upstream')!;
    expect(waiting.state).toBe('queued');
    expect(waiting.lastErrorMessage).toMatch(/on its side: .*model timeout; they are sent again later/);
    f.emu.admin.setConfig({ asyncFailureRate: 0 });
    await waitUntil(() => settled(f.pipeline), 90_000, 'the run');
    expect(f.pipeline.queue.list({ states: ['failed'] })).toEqual([]);
    expectFullyIndexed(f.db, CLIPS.length);
    expect(f.db.prepare('SELECT MAX(resubmits) FROM service_tasks').pluck().get()).toBeGreaterThanOrEqual(1);
  });

  it('a task the service could not use fails its clip at once with the reason, without sending it again', async () => {
    const f = await run({ asyncFailureRate: 1, asyncFailureMessage: 'could not decode the video tensor' });
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run');
    const failed = f.pipeline.queue.list({ states: ['failed'] });
    expect(failed.length).toBe(CLIPS.length);
    for (const j of failed) {
      expect(j.lastErrorKind).toBe('invalid');
      expect(j.lastErrorMessage).toMatch(/could not use what was sent .*could not decode the video tensor/);
    }
    expect(f.db.prepare('SELECT MAX(resubmits) FROM service_tasks').pluck().get()).toBe(0);
  });
});
