import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { createJobStore } from '../../../src-main/core/pipeline/queue/job-store';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(): { db: CatalogDb; store: ReturnType<typeof createJobStore>; clips: number[] } {
  const t = tempDir('rs-job-store-');
  const db = openCatalog(path.join(t.dir, 'catalog.sqlite'));
  cleanups.push(() => {
    db.close();
    t.cleanup();
  });
  db.prepare("INSERT INTO volumes (id, volume_key, mount_path, last_seen_at) VALUES (1, 'v', '/', 1)").run();
  const clip = db.prepare("INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, ?, ?, 1, 1, 'pending', 1, 1)");
  const clips = [1, 2, 3].map((i) => Number(clip.run(`c${i}.mp4`, `c${i}.mp4`).lastInsertRowid));
  return { db, store: createJobStore(db), clips };
}

describe('the jobs table owner', () => {
  it("settles a run: the columns it names change, the others keep the row's values, running time adds up", () => {
    const { store, clips } = setup();
    const id = store.insert({ clipId: clips[0]!, stage: 'upload', resource: 'network', priority: 0, payload: null, workS: 4 }, 10);
    expect(store.markRunning(id, 20)).toBe(true);
    store.settle(id, { state: 'queued', last_error_kind: 'timeout', last_error_message: 'slow', attempts: 1, not_before: 500 }, 30, 50);
    store.writeProgress(id, 0.5, 'half', 60);
    store.settle(id, { state: 'queued', progress: 0.5 }, 40, 70);
    // The second settle named neither the error nor the attempts nor the delay: they stay.
    expect(store.row(id)).toMatchObject({ state: 'queued', attempts: 1, last_error_kind: 'timeout', last_error_message: 'slow', not_before: 500, note: 'half', progress: 0.5, run_ms: 70, updated_at: 70 });
    // Named as null, they are cleared.
    store.settle(id, { state: 'done', progress: 1, finished_at: 80, last_error_kind: null, last_error_message: null, not_before: null }, 5, 80);
    expect(store.row(id)).toMatchObject({ state: 'done', attempts: 1, last_error_kind: null, last_error_message: null, not_before: null, finished_at: 80, run_ms: 75 });
  });

  it('changes the state of a job only from the states asked, and a fresh start clears the failure', () => {
    const { store, clips } = setup();
    const id = store.insert({ clipId: clips[0]!, stage: 'probe', resource: 'cpu', priority: 0, payload: null, workS: null }, 1);
    store.settle(id, { state: 'failed', attempts: 3, last_error_kind: 'media', last_error_message: 'bad', finished_at: 2 }, 0, 2);
    expect(store.transition(id, ['queued'], 'paused', {}, 3)).toBe(false);
    expect(store.transition(id, ['failed', 'cancelled'], 'queued', { fresh: true, clearNotBefore: true }, 4)).toBe(true);
    expect(store.row(id)).toMatchObject({ state: 'queued', attempts: 0, last_error_kind: null, last_error_message: null, progress: 0, finished_at: 2 });
    expect(store.transition(id, ['queued'], 'cancelled', {}, 5)).toBe(true);
    expect(store.row(id)).toMatchObject({ state: 'cancelled', finished_at: 5 });
  });

  it('hands out due work in queue order: priority, then the preview lane of every clip, then clip after clip', () => {
    const { store, clips } = setup();
    const [a, b, c] = clips as [number, number, number];
    const add = (clipId: number, stage: 'probe' | 'analysis' | 'upload', priority = 0) => store.insert({ clipId, stage, resource: stage === 'upload' ? 'network' : 'cpu', priority, payload: null, workS: null }, 1);
    const aAnalysis = add(a, 'analysis');
    const bProbe = add(b, 'probe');
    const cAnalysis = add(c, 'analysis', 5);
    const later = add(a, 'probe');
    store.settle(later, { state: 'queued', not_before: 1000 }, 0, 1);
    add(b, 'upload');
    expect(store.due(['probe', 'analysis'], 100, 10).map((r) => r.id)).toEqual([cAnalysis, bProbe, aAnalysis]);
    expect(store.nextWake(['probe', 'analysis'], 100)).toBe(1000);
    expect(store.anyQueued(['upload'])).toBe(true);
    expect(store.list({ clipId: a, states: ['queued'], stages: ['probe'] }).map((r) => r.id)).toEqual([later]);
    expect(store.idsOfClipInStates(b, ['queued'])).toHaveLength(2);
  });
});
