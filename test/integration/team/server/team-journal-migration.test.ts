import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordTeamUpload, teamTasks, teamUploadKeys } from '../../../../src-main/core/team/server/journal-store';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { lookAtClipJob } from '../../../../src-main/core/team/server/team-job-store';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

/** The migration that binds the journal to its clip (README "Team library"), found by name: its number may move at a merge. */
const JOURNAL_BY_CLIP = readTeamMigrations().find((m) => m.name === 'journal_by_clip')!.version;

/**
 * Team migration 0015 on a team whose journal was written before it, on a real PostgreSQL: the rows
 * seats wrote under 0011's rules (any request id, no clip) are all kept, carry no clip, and are never
 * what a seat reads or may rewrite; the owner prunes them with the one statement the README gives.
 */
describeWithPostgres('team library: the journal\'s rows from before team migration 0015', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let seat: pg.Client;
  const A = randomUUID();
  let clip = 0;
  const oldRows = async () => ({
    uploads: (await admin.query('SELECT * FROM team.uploads WHERE clip_id IS NULL ORDER BY request_id')).rows,
    tasks: (await admin.query('SELECT * FROM team.tasks WHERE clip_id IS NULL ORDER BY upload_request_id')).rows,
  });

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    await migrateTeamSchema(admin, readTeamMigrations().filter((m) => m.version < JOURNAL_BY_CLIP));
    seat = await cluster.connect((await cluster.addSeat()).config);
    await joinSeat(seat, { seatId: A, name: 'Bay A', roots: [] });
    clip = (await adoptTeamClip(seat, { fingerprint: 'a'.repeat(32), sizeBytes: 1, fileName: 'A001.mov', seatId: A })).id;
    // What the journal's store wrote before 0015: any request id, no clip.
    for (const r of ['req-1', 'req-2']) {
      await seat.query("INSERT INTO team.uploads (request_id, region, storage_keys, seat_id) VALUES ($1, 'asia', $2::jsonb, $3)", [r, JSON.stringify({ video_input_key: `key-${r}` }), A]);
      await seat.query("INSERT INTO team.tasks (upload_request_id, kind, region, task_id, seat_id) VALUES ($1, 'embedding', 'asia', $2, $3)", [r, `task-${r}`, A]);
    }
  }, 120_000);

  afterAll(async () => {
    await seat?.end().catch(() => undefined);
    await admin?.end();
    await cluster?.stop();
  });

  it('keeps every row, reads none of them by clip, lets no seat rewrite them, and the owner prunes them', async () => {
    const before = (await admin.query('SELECT * FROM team.uploads ORDER BY request_id')).rows;
    expect(before).toHaveLength(2);
    expect((await migrateTeamSchema(admin, readTeamMigrations())).applied).toEqual(readTeamMigrations().filter((m) => m.version >= JOURNAL_BY_CLIP).map((m) => m.version));
    const kept = await oldRows();
    expect(kept.uploads).toEqual(before.map((r) => ({ ...r, clip_id: null })));
    expect(kept.tasks).toHaveLength(2);

    // The seat holds the clip's job now: the old rows (written by this very seat) are still not its clip's journal.
    expect((await lookAtClipJob(seat, { seat: A, clipId: clip, stage: 'analysis', profileId: 'p', leaseMs: 30_000 })).kind).toBe('claimed');
    expect(await teamUploadKeys(seat, clip, 'asia', ['req-1', 'req-2'])).toEqual(new Map());
    expect(await teamTasks(seat, clip, 'asia', ['req-1', 'req-2'])).toEqual(new Map());
    await expect(seat.query("UPDATE team.uploads SET storage_keys = '{}' WHERE request_id = 'req-1'")).rejects.toMatchObject({ code: '42501', message: expect.stringContaining('holds no job of clip <NULL>') });
    await expect(seat.query("INSERT INTO team.tasks (upload_request_id, kind, region, task_id, seat_id) VALUES ('req-3', 'embedding', 'asia', 't', $1)", [A])).rejects.toMatchObject({ code: '42501' });
    expect(await oldRows()).toEqual(kept);

    // The same request under the clip, by its holder: a row of its own beside the old one.
    await recordTeamUpload(seat, A, { teamClipId: clip, requestId: 'req-1', region: 'asia', storageKeysJson: '{"video_input_key":"key-new"}' });
    expect(await teamUploadKeys(seat, clip, 'asia', ['req-1', 'req-2'])).toEqual(new Map([['req-1', '{"video_input_key": "key-new"}']]));

    // The owner's prune (README): the rows without a clip go, the clip's journal stays.
    await admin.query('DELETE FROM team.uploads WHERE clip_id IS NULL; DELETE FROM team.tasks WHERE clip_id IS NULL');
    expect(await oldRows()).toEqual({ uploads: [], tasks: [] });
    expect((await admin.query('SELECT request_id FROM team.uploads')).rows).toEqual([{ request_id: 'req-1' }]);
  });
});
