import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { createSegmentStore } from '../../../../src-main/core/pipeline/service-cache/segment-store';
import { LeaseKeeper } from '../../../../src-main/core/team/seat/lease-keeper';
import { SeatScheduler } from '../../../../src-main/core/team/seat/seat-scheduler';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { recordTeamTask, recordTeamUpload, teamUploadKeys } from '../../../../src-main/core/team/server/journal-store';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { lookAtClipJob, reapExpiredTeamLeases } from '../../../../src-main/core/team/server/team-job-store';
import { teamLinkOf } from '../../../../src-main/core/team/team-replica-store';
import { ClipSharing } from '../../../../src-main/core/team/syncs/clip-sharing';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { insertClip, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';

const ROGUE = '00000000-0000-4000-8000-0000000000e1';
const HOLDER = '00000000-0000-4000-8000-0000000000b1';
const HEIR = '00000000-0000-4000-8000-0000000000c1';
const PROFILE = 'test-profile';
const REGION = 'asia';
const FINGERPRINT_X = '1'.repeat(32);
/** Request ids are derived from content and profile: every seat indexing clip X computes these. */
const REQUESTS = ['up-x-0', 'up-x-1', 'up-x-2'];

/**
 * The team's journal (`team.uploads`, `team.tasks`) bound to the clip whose job wrote it (issue 40,
 * team migration 0015), on a real PostgreSQL with each seat's own login. A rogue seat cannot write a
 * row for a clip whose job it does not hold, and the rows it writes under a clip it does hold (its
 * own clip Y, with clip X's request ids) are never what a seat taking X over reads; the seat taking
 * over a dead holder's clip still finds what the holder recorded. The seats' side is the app's own
 * ClipSharing (what the upload and submit stages ask) on real catalogs.
 */
describeWithPostgres('team library: the journal is written by the holder of the clip\'s job and read by clip', () => {
  const tmp = tempDir('rs-team-journal-');
  let cluster: PgCluster;
  let admin: pg.Client;
  let rogue: pg.Client;
  let teamX = 0;
  let teamY = 0;
  const seats: Array<{ inner: TeamSeat; db: CatalogDb }> = [];

  /** A seat's ClipSharing on a catalog of its own holding a copy of clip X, on its own login (not started: the test drives it). */
  async function seat(seatId: string, name: string): Promise<{ sharing: ClipSharing; clipId: number; db: CatalogDb }> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const clipId = insertClip(db, { volumeId: insertVolume(db, `/mnt/${name}`), relPath: 'X.mov', fingerprint: FINGERPRINT_X, sizeBytes: 4242 });
    const login = await cluster.seatLogin(seatId);
    const inner = new TeamSeat({ settings: login.settings(name), password: login.password, seatId, db, appSchemaVersion: readTeamMigrations().at(-1)!.version });
    seats.push({ inner, db });
    const scheduler = new SeatScheduler({ link: inner, log: silentLogger });
    const leases = new LeaseKeeper({ link: inner, scheduler, log: silentLogger });
    const sharing = new ClipSharing({ db, cacheDir: dir, store: createSegmentStore(db), link: inner, profileId: PROFILE, identity: () => ({ region: REGION, model: 'm' }), scheduler, leases, wake: () => undefined, working: () => true });
    return { sharing, clipId, db };
  }

  /** The whole journal as the administrator reads it. */
  const journal = async () => ({
    uploads: (await admin.query('SELECT clip_id, request_id, region, storage_keys, seat_id, at FROM team.uploads ORDER BY clip_id, request_id')).rows,
    tasks: (await admin.query('SELECT clip_id, upload_request_id, kind, region, task_id, seat_id, at FROM team.tasks ORDER BY clip_id, upload_request_id')).rows,
  });

  /** One attempt of the rogue seat, in a transaction rolled back: refused with 42501 and the reason, the journal unchanged. */
  const refused = async (what: string, attempt: (c: pg.Client) => Promise<unknown>, why: RegExp) => {
    const before = await journal();
    await rogue.query('BEGIN');
    const outcome = await attempt(rogue).then(
      () => ({ code: 'none', message: 'it succeeded' }),
      (e: unknown) => ({ code: (e as { code?: string }).code, message: e instanceof Error ? e.message : String(e) }),
    );
    await rogue.query('ROLLBACK');
    expect(outcome.message, what).toMatch(why);
    expect(outcome.code, what).toBe('42501');
    expect(await journal(), `${what}: the journal`).toEqual(before);
  };

  let holder: Awaited<ReturnType<typeof seat>>;
  let heir: Awaited<ReturnType<typeof seat>>;

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    for (const [seatId, name] of [[ROGUE, 'Rogue'], [HOLDER, 'Holder'], [HEIR, 'Heir']] as const) {
      const c = await cluster.connectSeat(seatId);
      await joinSeat(c, { seatId, name, roots: [] });
      await c.end();
    }
    rogue = await cluster.connectSeat(ROGUE);
    holder = await seat(HOLDER, 'holder');
    heir = await seat(HEIR, 'heir');
    // The rogue's own clip Y: its job is the rogue's to hold.
    teamY = (await adoptTeamClip(rogue, { fingerprint: '2'.repeat(32), sizeBytes: 7, fileName: 'Y.mov', seatId: ROGUE })).id;
  }, 120_000);

  afterAll(async () => {
    for (const s of seats) {
      await s.inner.stop();
      s.db.close();
    }
    await rogue?.end().catch(() => undefined);
    await admin?.end();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('a seat holding no job of clip X writes nothing of X\'s journal, before or while another seat holds it (42501)', async () => {
    // Before anyone holds X: the rogue knows X's fingerprint (the team's clips are readable) and its request ids.
    teamX = (await adoptTeamClip(rogue, { fingerprint: FINGERPRINT_X, sizeBytes: 4242, fileName: 'X.mov', seatId: ROGUE })).id;
    const noJob = /holds no job of clip/;
    await refused('pre-seed storage keys of X', (c) => recordTeamUpload(c, ROGUE, { teamClipId: teamX, requestId: REQUESTS[0]!, region: REGION, storageKeysJson: '{"video_input_key":"bogus"}' }), noJob);
    await refused('pre-seed a task of X', (c) => recordTeamTask(c, ROGUE, { teamClipId: teamX, uploadRequestId: REQUESTS[0]!, kind: 'embedding', region: REGION, taskId: 'bogus' }), noJob);
    await refused('a row naming no clip', (c) => c.query("INSERT INTO team.uploads (request_id, region, storage_keys, seat_id) VALUES ($1, $2, '{}', $3)", [REQUESTS[0], REGION, ROGUE]), /holds no job of clip <NULL>/);

    // The holder claims X and records its first upload and task, as its stages do.
    expect(await holder.sharing.beforeAnalysis(holder.clipId)).toEqual({ kind: 'here' });
    expect(teamLinkOf(holder.db, holder.clipId)?.teamClipId).toBe(teamX);
    await holder.sharing.uploaded(holder.clipId, REQUESTS[0]!, REGION, '{"video_input_key":"real-0"}');
    await holder.sharing.submitted(holder.clipId, REQUESTS[0]!, 'embedding', REGION, 'task-real-0');
    expect((await journal()).uploads.map((r) => [Number(r.clip_id), r.request_id, r.seat_id])).toEqual([[teamX, REQUESTS[0], HOLDER]]);

    await refused('storage keys of X while another seat holds it', (c) => recordTeamUpload(c, ROGUE, { teamClipId: teamX, requestId: REQUESTS[1]!, region: REGION, storageKeysJson: '{"video_input_key":"bogus"}' }), noJob);
    await refused('the holder\'s row taken by upsert', (c) => c.query("INSERT INTO team.uploads (clip_id, request_id, region, storage_keys, seat_id) VALUES ($1, $2, $3, '{}', $4) ON CONFLICT (clip_id, request_id, region) DO UPDATE SET storage_keys = excluded.storage_keys, seat_id = excluded.seat_id", [teamX, REQUESTS[0], REGION, ROGUE]), noJob);
    await refused('the holder\'s task repointed', (c) => c.query("UPDATE team.tasks SET task_id = 'bogus' WHERE clip_id = $1", [teamX]), /this row is seat .*'s, not this session's/);
  });

  it('rows the rogue wrote under its own clip Y with X\'s request ids are not what the seat taking X over reads; the dead holder\'s are', async () => {
    // The rogue holds Y's job, so it may write Y's journal: with X's request ids and keys of its own.
    const look = await lookAtClipJob(rogue, { seat: ROGUE, clipId: teamY, stage: 'analysis', profileId: PROFILE, leaseMs: 30_000 });
    expect(look.kind).toBe('claimed');
    for (const requestId of REQUESTS) {
      await recordTeamUpload(rogue, ROGUE, { teamClipId: teamY, requestId, region: REGION, storageKeysJson: '{"video_input_key":"poisoned"}' });
      await recordTeamTask(rogue, ROGUE, { teamClipId: teamY, uploadRequestId: requestId, kind: 'embedding', region: REGION, taskId: 'task-poisoned' });
    }
    expect((await teamUploadKeys(rogue, teamY, REGION, REQUESTS)).size).toBe(3);

    // The holder dies holding X (its lease runs out); the heir reaps it, claims X, and is told it took X over.
    await admin.query("UPDATE team.jobs SET lease_expires_at = now() - interval '1 second' WHERE clip_id = $1", [teamX]);
    const c = await cluster.connectSeat(HEIR);
    expect((await reapExpiredTeamLeases(c, 20)).map((j) => j.state)).toEqual(['queued']);
    await c.end();
    expect(await heir.sharing.beforeAnalysis(heir.clipId)).toEqual({ kind: 'here' });
    expect(heir.sharing.takenOver(heir.clipId)).toBe(true);

    // What the upload and submit stages ask: only X's own journal, the holder's rows.
    expect(await heir.sharing.knownUploads(heir.clipId, REGION, REQUESTS)).toEqual(new Map([[REQUESTS[0]!, '{"video_input_key": "real-0"}']]));
    expect(await heir.sharing.knownTasks(heir.clipId, REGION, REQUESTS)).toEqual(new Map([[`embedding:${REQUESTS[0]}`, 'task-real-0']]));

    // The holder, back after its lease ran out, writes no more of X's journal; the heir does.
    const late = await cluster.connectSeat(HOLDER);
    await expect(recordTeamUpload(late, HOLDER, { teamClipId: teamX, requestId: REQUESTS[1]!, region: REGION, storageKeysJson: '{"video_input_key":"late"}' })).rejects.toMatchObject({ code: '42501' });
    await late.end();
    await heir.sharing.uploaded(heir.clipId, REQUESTS[1]!, REGION, '{"video_input_key":"real-1"}');
    expect(await heir.sharing.knownUploads(heir.clipId, REGION, REQUESTS)).toEqual(
      new Map([
        [REQUESTS[0]!, '{"video_input_key": "real-0"}'],
        [REQUESTS[1]!, '{"video_input_key": "real-1"}'],
      ]),
    );
    // The rogue's rows of Y are as it wrote them: its own clip's journal, read by nobody indexing X.
    expect([...(await teamUploadKeys(admin, teamY, REGION, REQUESTS)).values()]).toEqual(REQUESTS.map(() => '{"video_input_key": "poisoned"}'));
  });
});
