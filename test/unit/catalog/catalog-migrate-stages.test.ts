import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { STAGE_NAMES } from '../../../src-shared/contract/stage-graph';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { insertClip, insertVolume } from '../../helpers/catalog/search-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** An older app's catalog with a card of clips and a way to add jobs; `reopen` migrates it with the app's opener. */
function jobsAtVersion(version: number) {
  const { file, old } = catalogAtVersion(version, cleanups);
  const vol = insertVolume(old, '/media/card');
  const clip = (name: string) => insertClip(old, { volumeId: vol, relPath: name, durationS: 4 });
  const insert = old.prepare(
    "INSERT INTO jobs (clip_id, stage, state, resource, priority, created_at, updated_at, last_error_message) VALUES (?, ?, ?, 'cpu', ?, 1, 1, ?)",
  );
  const reopen = () => {
    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const jobsOf = (c: number) => db.prepare('SELECT stage, state, priority, last_error_message AS err FROM jobs WHERE clip_id = ? ORDER BY stage').all(c);
    return { db, jobsOf };
  };
  return { old, clip, job: insert, reopen };
}

describe('migration 0018: thumbnails and tensors jobs become analysis jobs', () => {
  it('keeps every unfinished clip unfinished under a stage the queue still runs', () => {
    const { old, clip, job, reopen } = jobsAtVersion(17);
    const waitingThumbs = clip('A.mov');
    job.run(waitingThumbs, 'shots', 'succeeded', 0, null);
    job.run(waitingThumbs, 'thumbnails', 'queued', 5, null);
    const tensorsRunning = clip('B.mov');
    job.run(tensorsRunning, 'analysis', 'succeeded', 0, null);
    job.run(tensorsRunning, 'tensors', 'running', 0, null);
    const tensorsFailed = clip('C.mov');
    job.run(tensorsFailed, 'thumbnails', 'succeeded', 0, null);
    job.run(tensorsFailed, 'analysis', 'succeeded', 0, null);
    job.run(tensorsFailed, 'tensors', 'failed', 0, 'disk full');
    const finished = clip('D.mov');
    job.run(finished, 'thumbnails', 'succeeded', 0, null);
    job.run(finished, 'analysis', 'succeeded', 0, null);
    job.run(finished, 'tensors', 'succeeded', 0, null);
    job.run(finished, 'upload', 'queued', 0, null);
    old.close();
    const { db, jobsOf } = reopen();
    // (0019 then drops the finished shots job: shot detection is part of analysis; 0045 calls a finished job done.)
    expect(jobsOf(waitingThumbs)).toEqual([{ stage: 'analysis', state: 'queued', priority: 5, err: null }]);
    expect(jobsOf(tensorsRunning)).toEqual([{ stage: 'analysis', state: 'queued', priority: 0, err: null }]);
    expect(jobsOf(tensorsFailed)).toEqual([{ stage: 'analysis', state: 'failed', priority: 0, err: 'disk full' }]);
    expect(jobsOf(finished)).toEqual([
      { stage: 'analysis', state: 'done', priority: 0, err: null },
      { stage: 'upload', state: 'queued', priority: 0, err: null },
    ]);
    const stages = db.prepare('SELECT DISTINCT stage FROM jobs').pluck().all() as string[];
    for (const s of stages) expect(STAGE_NAMES).toContain(s);
  });
});

describe('migration 0019: shots jobs become analysis jobs', () => {
  it('keeps a clip waiting for, running or failing shot detection unfinished under analysis', () => {
    const { old, clip, job, reopen } = jobsAtVersion(18);
    const waiting = clip('A.mov');
    job.run(waiting, 'poster', 'succeeded', 0, null);
    job.run(waiting, 'shots', 'queued', 3, null);
    const running = clip('B.mov');
    job.run(running, 'shots', 'running', 0, null);
    const failed = clip('C.mov');
    job.run(failed, 'shots', 'failed', 0, 'moov atom not found');
    const again = clip('D.mov');
    job.run(again, 'analysis', 'succeeded', 0, null);
    job.run(again, 'shots', 'queued', 0, null);
    const done = clip('E.mov');
    job.run(done, 'shots', 'succeeded', 0, null);
    job.run(done, 'analysis', 'succeeded', 0, null);
    old.close();
    const { db, jobsOf } = reopen();
    expect(jobsOf(waiting)).toEqual([
      { stage: 'analysis', state: 'queued', priority: 3, err: null },
      { stage: 'poster', state: 'done', priority: 0, err: null },
    ]);
    expect(jobsOf(running)).toEqual([{ stage: 'analysis', state: 'queued', priority: 0, err: null }]);
    expect(jobsOf(failed)).toEqual([{ stage: 'analysis', state: 'failed', priority: 0, err: 'moov atom not found' }]);
    expect(jobsOf(again)).toEqual([{ stage: 'analysis', state: 'queued', priority: 0, err: null }]);
    expect(jobsOf(done)).toEqual([{ stage: 'analysis', state: 'done', priority: 0, err: null }]);
    const stages = db.prepare('SELECT DISTINCT stage FROM jobs').pluck().all() as string[];
    for (const s of stages) expect(STAGE_NAMES).toContain(s);
  });
});
