import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import { MEDIA_DIR, sampleClips, tempDir } from '../../helpers/paths';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import type { EventPayload } from '../../../src-shared/contract';
import {
  IndexingPipeline,
  TEST_KEY,
  TEST_PROFILE,
  importFiles,
  indexReport,
  openTestCatalog,
  testPipelineOptions,
  testServiceAccess,
  waitUntil,
} from '../fixtures/pipeline-harness';

/**
 * The whole sample library (18 real clips, 6 minutes of footage) through every stage against the
 * in-process emulator, with the small test tensor profile. The slowest test of the pipeline: the
 * 139 s clip dominates the CPU stages.
 */
describe('indexing pipeline: every sample clip against the emulator', () => {
  let emu: EmulatorHandle;
  let db: CatalogDb;
  let pipeline: IndexingPipeline;
  const tmp = tempDir('rs-pipeline-all-');
  const summaries: EventPayload<'jobs.summary'>[] = [];
  const clipEvents: EventPayload<'jobs.clips'>['clips'] = [];
  let elapsedMs = 0;

  beforeAll(async () => {
    resetSharedKeyStates();
    emu = await startEmulator({ keys: [TEST_KEY] });
    db = openTestCatalog(tmp.dir);
  });

  afterAll(async () => {
    await pipeline?.stop();
    db?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('ends with an embedding and tags for every shot of every clip', async () => {
    const clipIds = await importFiles(db, [MEDIA_DIR]);
    expect(clipIds.length).toBe(sampleClips().length);
    const opts = testPipelineOptions(db, tmp.dir, testServiceAccess(emu.url));
    opts.events!.subscribe((event, payload) => {
      if (event === 'jobs.summary') summaries.push(payload as EventPayload<'jobs.summary'>);
      if (event === 'jobs.clips') clipEvents.push(...(payload as EventPayload<'jobs.clips'>).clips);
    });
    pipeline = new IndexingPipeline(opts);
    expect(pipeline.enqueueClips()).toBe(clipIds.length);
    const t0 = performance.now();
    pipeline.start();
    await waitUntil(() => pipeline.queue.isIdle(), 170_000, 'the queue to drain');
    elapsedMs = performance.now() - t0;

    const failed = pipeline.queue.list({ states: ['failed'] });
    expect(failed.map((j) => `${j.stage} ${j.clipId}: ${j.lastErrorMessage}`)).toEqual([]);
    const r = indexReport(db, TEST_PROFILE.id);
    expect(r.clips).toBe(clipIds.length);
    expect(r.indexedClips).toBe(clipIds.length);
    expect(r.shots).toBeGreaterThanOrEqual(clipIds.length);
    // Every shot: at least one segment, each with its embedding and its tags.
    expect(r.shotsComplete).toBe(r.shots);
    expect(r.embedded).toBe(r.segments);
    expect(r.tagged).toBe(r.segments);
    expect(r.wellFormedEmbeddings).toBe(r.segments);
    expect(r.recognisedTags).toBe(r.segments);
    expect(r.orphanSegments).toBe(0);

    // What went over the wire: two uploads and two tasks per distinct segment content, nothing twice.
    const st = emu.stats();
    const distinct = (db.prepare('SELECT COUNT(DISTINCT request_id) AS n FROM tensor_uploads').get() as { n: number }).n;
    expect(st.tensorUploads).toBe(distinct);
    expect(st.duplicateTensorUploads).toBe(0);
    expect(st.conflictingTensorUploads).toBe(0);
    expect(st.duplicateTaskSubmissions).toBe(0);
    expect(st.taskSubmissions).toBeGreaterThan(0);
    expect(st.taskSubmissions).toBeLessThanOrEqual(2 * r.segments);

    // The stored vector is the service's, float32 little-endian.
    const row = db.prepare('SELECT e.dim, e.vector, st.task_id FROM embeddings e JOIN service_tasks st ON st.segment_id = e.segment_id AND st.kind = ? LIMIT 1').get('embedding') as {
      dim: number;
      vector: Buffer;
      task_id: string;
    };
    const status = await testServiceAccess(emu.url).client().getAsyncStatus(row.task_id);
    expect(row.dim).toBe(status.embedding!.length);
    expect(row.vector.readFloatLE(4)).toBeCloseTo(status.embedding![1]!, 5);

    // The renderer saw progress: per-clip stages moving, totals ending with everything done and an ETA of 0.
    // Events are throttled: the last one follows the last job by up to one interval.
    await waitUntil(() => summaries.at(-1)?.clips.done === clipIds.length, 5000, 'the final summary event');
    const last = summaries.at(-1)!;
    expect(last.clips).toMatchObject({ total: clipIds.length, done: clipIds.length, active: 0, failed: 0 });
    expect(last.etaMs).toBe(0);
    expect(summaries.some((s) => s.etaMs !== null && s.etaMs > 0)).toBe(true);
    const stagesSeen = new Set(clipEvents.map((c) => c.stage));
    for (const s of ['probe', 'poster', 'analysis', 'upload', 'submit', 'poll', 'index']) expect(stagesSeen).toContain(s);
    expect(clipEvents.some((c) => c.state === 'running' && c.progress > 0 && c.progress < 1)).toBe(true);
    const list = pipeline.listClips('all');
    expect(list.total).toBe(clipIds.length);
    expect(list.clips.every((c) => c.state === 'done' && c.progress === 1 && c.segments > 0)).toBe(true);

    const perStage = db.prepare('SELECT stage, SUM(run_ms) AS ms FROM jobs GROUP BY stage').all() as { stage: string; ms: number }[];
    console.log(
      `indexed ${r.clips} clips, ${r.shots} shots, ${r.segments} segments in ${(elapsedMs / 1000).toFixed(1)} s; ` +
        `uploads ${st.tensorUploads}, tasks ${st.taskSubmissions}; run time by stage: ${perStage.map((p) => `${p.stage} ${(p.ms / 1000).toFixed(1)}s`).join(', ')}`,
    );
  }, 200_000);
});
