import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pullTeamChanges, currentTeamCursor } from '../../../../src-main/core/team/server/change-store';
import { publishClipResults } from '../../../../src-main/core/team/server/clip-results-store';
import { recordTeamTask, recordTeamUpload } from '../../../../src-main/core/team/server/journal-store';
import { MIGRATION_LOCK_KEY } from '../../../../src-main/core/team/server/migration-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip, adoptTeamUrlClip, recordTeamClipLocation } from '../../../../src-main/core/team/server/team-clip-store';
import { AppError } from '../../../../src-shared/errors';
import { claimCollectionUpload, publishCollectionMember } from '../../../../src-main/core/team/server/team-collection-store';
import { lookAtClipJob, renewTeamLeases, type ClaimedTeamJob } from '../../../../src-main/core/team/server/team-job-store';
import { readTeamMarks, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import { upsertTeamFact, upsertTeamPerson } from '../../../../src-main/core/team/server/team-people-store';
import type { RangeState } from '../../../../src-main/core/marks/marks-merge';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster, type SeatLogin } from '../../../helpers/team/pg-cluster';

const STAGE = 'analysis' as const;
const PROFILE = 'default';
const LEASE_MS = 100_000; // long enough that B's leases outlive the test
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The attacks of issue 40 (item 6) on a real PostgreSQL set up as the README says, each seat with its
 * own login (`npm run team:seat -- add`): seat A, with A's own credentials and plain SQL or the app's
 * own stores, tries what a seat's owner could; every attempt is refused with a clear error, and after
 * each, everything of seat B (its rows, its role, its leases, its marks) is as it was. On main before
 * migration 0011 most of these succeeded (one shared role with table-level UPDATE). Then A does its
 * own work through the app's stores, which still passes.
 */
describeWithPostgres('team library: a seat with its own credentials cannot touch what another seat owns', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  let loginA: SeatLogin;
  let loginB: SeatLogin;
  const A = randomUUID();
  const B = randomUUID();
  let clipB = 0; // B holds its job
  let clipFree = 0; // nobody holds its job
  let urlClipB = 0; // a clip B added by URL
  const URL_B = 'https://cdn.example/reviews/B%20take.mp4?sig=b';
  let jobB: ClaimedTeamJob;
  const rangeB = randomUUID();
  const personB = randomUUID();

  /** B's stamp on everything B wrote at the start (B's rows as they are, resent as they are, change nothing). */
  const SB = { at: Date.now() - 60_000, by: B };
  const stampB = () => SB;
  const rangeOfB = (): RangeState => {
    const s = stampB();
    return { id: rangeB, clipId: clipB, span: { value: { inFrame: 0, outFrame: 50, rateNum: 25, rateDen: 1 }, stamp: s }, name: { value: 'B take', stamp: s }, note: { value: '', stamp: s }, rating: { value: null, stamp: s }, created: s, deleted: null };
  };

  /** Everything of seat B a seat could want to change, read as the administrator. */
  const ofB = async () => {
    const q = async (sql: string, params: unknown[] = [B]) => (await admin.query(sql, params)).rows;
    return {
      roles: await q(
        `SELECT a.rolname, a.rolpassword, a.rolconnlimit, a.rolcanlogin, a.rolsuper, (SELECT array_agg(s.setconfig) FROM pg_db_role_setting s WHERE s.setrole = a.oid) AS config,
                (SELECT array_agg(m.roleid::regrole::text ORDER BY m.roleid) FROM pg_auth_members m WHERE m.member = a.oid) AS member_of
           FROM pg_authid a WHERE a.rolname IN ($1, 'reelscout_seats', 'reelscout_seat') ORDER BY a.rolname`,
        [loginB.role],
      ),
      login: await q('SELECT * FROM team.seat_logins WHERE seat_id = $1'),
      seat: await q('SELECT * FROM team.seats WHERE seat_id = $1'),
      clips: await q('SELECT * FROM team.clips WHERE created_by = $1 ORDER BY id'),
      places: await q('SELECT * FROM team.clip_locations WHERE seen_by = $1 ORDER BY id'),
      jobs: await q('SELECT * FROM team.jobs WHERE lease_owner = $1 OR clip_id = $2 ORDER BY id', [B, clipB]),
      results: await q('SELECT clip_id, profile_id, published_by FROM team.clip_results ORDER BY clip_id', []),
      ranges: await q('SELECT * FROM team.ranges WHERE clip_id = $1', [clipB]),
      keywords: await q('SELECT * FROM team.keywords WHERE clip_id = $1 ORDER BY id', [clipB]),
      marks: await q('SELECT * FROM team.clip_marks WHERE clip_id = $1', [clipB]),
      people: await q('SELECT * FROM team.people WHERE uuid = $1', [personB]),
      facts: await q('SELECT * FROM team.people_facts WHERE seat = $1 ORDER BY id'),
      members: await q('SELECT * FROM team.collection_videos WHERE added_by = $1 OR uploaded_by = $1 ORDER BY id'),
      uploads: await q('SELECT * FROM team.uploads WHERE seat_id = $1'),
      tasks: await q('SELECT * FROM team.tasks WHERE seat_id = $1'),
      budgets: await q('SELECT bucket FROM team.write_budgets WHERE bucket = $1', [`seat:${B}`]),
      migrations: await q('SELECT version, sha256 FROM team.schema_migrations ORDER BY version', []),
    };
  };

  /**
   * One attempt as seat A: refused with an error whose message says why (matching `why`), in a
   * transaction of its own that is rolled back, and nothing of B changed.
   */
  const refused = async (what: string, attempt: (c: pg.Client) => Promise<unknown>, why: RegExp) => {
    const before = await ofB();
    await a.query('BEGIN');
    const outcome = await attempt(a).then(
      () => 'it succeeded',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await a.query('ROLLBACK');
    expect(outcome, what).toMatch(why);
    expect(await ofB(), `${what}: B's rows`).toEqual(before);
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    await cluster.setLeaseLength(LEASE_MS / 1000);
    admin = await cluster.connect(cluster.adminConfig());
    loginA = await cluster.addSeat();
    loginB = await cluster.addSeat();
    a = await cluster.connect(loginA.config);
    b = await cluster.connect(loginB.config);
    // Each binds its own login to its app's id at its first join, as Settings' Join does.
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: ['share'] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: ['share'] });

    // B's work: a clip it holds, its place, its marks, a person and a fact, a collection upload it
    // holds, its journal. One more clip whose job nobody holds.
    clipB = (await adoptTeamClip(b, { fingerprint: 'b'.repeat(32), sizeBytes: 10, fileName: 'B.mov', seatId: B })).id;
    clipFree = (await adoptTeamClip(b, { fingerprint: 'f'.repeat(32), sizeBytes: 10, fileName: 'F.mov', seatId: B })).id;
    expect(await recordTeamClipLocation(b, { clipId: clipB, rootKey: 'share', relPath: 'Day1/B.mov', seatId: B })).toBeNull();
    const look = await lookAtClipJob(b, { seat: B, clipId: clipB, stage: STAGE, profileId: PROFILE, leaseMs: LEASE_MS });
    if (look.kind !== 'claimed') throw new Error(`B did not claim its clip: ${look.kind}`);
    jobB = look.job;
    await b.query("INSERT INTO team.jobs (clip_id, stage) VALUES ($1, 'analysis')", [clipFree]);
    const byUrl = await adoptTeamUrlClip(b, { sourceUrl: URL_B, fileName: 'B take.mp4', seatId: B });
    if (byUrl instanceof AppError) throw byUrl;
    urlClipB = byUrl.id;
    await upsertTeamRange(b, rangeOfB());
    await upsertTeamKeyword(b, { clipId: clipB, rangeId: null, norm: 'beach', display: 'Beach', added: stampB(), removed: null });
    await upsertTeamClipMark(b, { clipId: clipB, rating: { value: 'favorite', stamp: stampB() } });
    const s = stampB();
    await upsertTeamPerson(b, { uuid: personB, name: 'Ana', nameAt: s.at, nameBy: B, hidden: false, hiddenAt: s.at, hiddenBy: B, merged: null, forgotten: null });
    await upsertTeamFact(b, { personUuid: personB, clipId: clipB, kind: 'is', timeMs: 1000, frame: 25, x: 100, y: 100, w: 500, h: 500, at: s.at, seat: B });
    expect(await claimCollectionUpload(b, B, { collectionId: 'col-1', region: 'asia', teamClipId: clipB }, null, LEASE_MS)).toEqual({ kind: 'claimed' });
    await recordTeamUpload(b, B, { teamClipId: clipB, requestId: 'req-b', region: 'asia', storageKeysJson: '["key-b"]' });
    await recordTeamTask(b, B, { teamClipId: clipB, uploadRequestId: 'req-b', kind: 'embedding', region: 'asia', taskId: 'task-b' });
  }, 120_000);

  afterAll(() => closePg([a, b, admin], cluster));

  it('roles: A can alter neither B\'s role nor the group, nor raise its own limits', async () => {
    await refused('ALTER ROLE B PASSWORD', (c) => c.query(`ALTER ROLE ${loginB.role} PASSWORD 'taken'`), /permission denied/);
    await refused('ALTER ROLE B SET statement_timeout', (c) => c.query(`ALTER ROLE ${loginB.role} SET statement_timeout = 0`), /permission denied/);
    await refused('ALTER ROLE the group PASSWORD', (c) => c.query("ALTER ROLE reelscout_seats PASSWORD 'taken'"), /permission denied/);
    await refused('ALTER ROLE the group SET', (c) => c.query('ALTER ROLE reelscout_seats SET statement_timeout = 0'), /permission denied/);
    await refused('ALTER ROLE the group LOGIN', (c) => c.query('ALTER ROLE reelscout_seats LOGIN'), /permission denied/);
    await refused('ALTER ROLE the old shared role', (c) => c.query("ALTER ROLE reelscout_seat LOGIN PASSWORD 'x'"), /permission denied/);
    await refused('A raises its own connection limit', (c) => c.query(`ALTER ROLE ${loginA.role} CONNECTION LIMIT -1`), /permission denied/);
    await refused('A makes itself a superuser', (c) => c.query(`ALTER ROLE ${loginA.role} SUPERUSER`), /must be superuser|permission denied/);
    await refused('A joins the owner role', (c) => c.query(`GRANT reelscout_owner TO ${loginA.role}`), /must have admin option on role "reelscout_owner"/);
    await refused('A raises its own write budget', (c) => c.query('UPDATE team.write_budgets SET tokens = 1e12'), /permission denied for table write_budgets/);
    await refused('A makes a budget row', (c) => c.query("INSERT INTO team.write_budgets VALUES ('seat:' || $1, 1e12, now())", [A]), /permission denied for table write_budgets/);
  });

  it('A cannot join as B\'s seat, bind a second seat, or edit B\'s seat row', async () => {
    await refused('join as B', (c) => joinSeat(c, { seatId: B, name: 'mine now', roots: [] }), new RegExp(`role ${loginA.role} is seat ${A}, not ${B}`));
    await refused('rename B', (c) => c.query("UPDATE team.seats SET name = 'pwned' WHERE seat_id = $1", [B]), /this row is seat .*'s, not this session's/);
    await refused('insert a seat row', (c) => c.query("INSERT INTO team.seats (seat_id, name) VALUES ($1, 'ghost')", [randomUUID()]), /permission denied for table seats/);
    await refused('rebind the login table', (c) => c.query('UPDATE team.seat_logins SET seat_id = $1 WHERE seat_id = $2', [A, B]), /permission denied for table seat_logins/);
    // And a login that is no seat cannot join at all.
    const stranger = await cluster.addSeat();
    await admin.query(`DELETE FROM team.seat_logins WHERE role_name = $1`, [stranger.role]);
    const s = await cluster.connect(stranger.config);
    await expect(joinSeat(s, { seatId: randomUUID(), name: 'x', roots: [] })).rejects.toThrow(/is not a seat of this team/);
    await s.end();
  });

  it('the queue: no LOCK TABLE, no stolen, extended or year-long lease', async () => {
    await refused('LOCK TABLE jobs', (c) => c.query('LOCK TABLE team.jobs IN ACCESS EXCLUSIVE MODE'), /permission denied for table jobs/);
    await refused('LOCK TABLE ranges', (c) => c.query('LOCK TABLE team.ranges IN EXCLUSIVE MODE'), /permission denied for table ranges/);
    await refused('TRUNCATE jobs', (c) => c.query('TRUNCATE team.jobs'), /permission denied for table jobs/);
    await refused('DELETE jobs', (c) => c.query('DELETE FROM team.jobs'), /permission denied for table jobs/);
    await refused('steal B\'s lease', (c) => c.query('UPDATE team.jobs SET lease_owner = $1, lease_token = lease_token + 1 WHERE id = $2', [A, jobB.id]), /holds its lease until/);
    await refused('extend B\'s lease', (c) => c.query("UPDATE team.jobs SET lease_expires_at = now() + interval '1 year' WHERE id = $1", [jobB.id]), /holds its lease until/);
    await refused('end B\'s lease', (c) => c.query("UPDATE team.jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL WHERE id = $1", [jobB.id]), /holds its lease until/);
    await refused('renew B\'s lease in B\'s name', (c) => renewTeamLeases(c, B, [jobB], LEASE_MS), /holds its lease until/);
    await refused('repoint B\'s job to another clip', (c) => c.query('UPDATE team.jobs SET clip_id = $1 WHERE id = $2', [clipFree, jobB.id]), /permission denied for table jobs/);
    await refused(
      'a lease for a year through the app\'s own claim',
      (c) => lookAtClipJob(c, { seat: A, clipId: clipFree, stage: STAGE, profileId: PROFILE, leaseMs: YEAR_MS }),
      /a lease runs at most 00:01:40 from now/,
    );
    await refused(
      'a lease in B\'s name',
      (c) => lookAtClipJob(c, { seat: B, clipId: clipFree, stage: STAGE, profileId: PROFILE, leaseMs: LEASE_MS }),
      /a lease is taken only for this session's seat/,
    );
    await refused('a job made already leased for a year', (c) => c.query("INSERT INTO team.jobs (clip_id, stage, state, lease_owner, lease_token, lease_expires_at) VALUES (NULL, 'x', 'running', $1, 1, now() + interval '1 year')", [A]), /a lease runs at most/);
    await refused('a queue stalled for a century', (c) => c.query("UPDATE team.jobs SET not_before = now() + interval '100 years' WHERE clip_id = $1", [clipFree]), /more than a day away/);
  });

  it('results: only for a clip whose job A holds, under A\'s own name', async () => {
    const empty = { clipId: clipFree, profileId: PROFILE, model: 'm', region: 'asia', shots: [], segments: [], thumbnails: [] };
    await refused('empty results for a clip nobody gave A', (c) => c.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, 'default', 'm', 'asia', '[]', 0, $2)", [clipFree, A]), /holds no job of clip/);
    await refused('empty results for B\'s clip', (c) => c.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, 'default', 'm', 'asia', '[]', 0, $2)", [clipB, A]), /holds no job of clip/);
    await refused('results in B\'s name', (c) => c.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, 'default', 'm', 'asia', '[]', 0, $2)", [clipB, B]), /published by seat .*, but this session is seat/);
    await refused('segments for B\'s clip', (c) => c.query("INSERT INTO team.segments (clip_id, profile_id, shot_idx, chunk_idx, start_s, end_s, dim, vector, tags_raw) VALUES ($1, 'default', 0, 0, 0, 1, 1, '\\x00000000', '{}')", [clipB]), /holds no job of clip/);
    await refused('a poster for B\'s clip', (c) => c.query("INSERT INTO team.thumbnails (clip_id, kind, file_name, image) VALUES ($1, 'poster', 'p.jpg', '\\xff')", [clipB]), /holds no job of clip/);
    // Through the app's store with B's lease named: fenced, nothing written.
    const before = await ofB();
    expect(await publishClipResults(a, A, jobB, { ...empty, clipId: clipB })).toEqual({ ok: false, refused: 'lease-lost' });
    expect(await ofB()).toEqual(before);
  });

  // Marks' stamps (server stamps, team migration 0014): team-marks-attacks.test.ts.
  it('marks: no keyword repointed, no mark deleted', async () => {
    await refused('repoint B\'s keyword to another clip', (c) => c.query('UPDATE team.keywords SET clip_id = $1 WHERE clip_id = $2', [clipFree, clipB]), /permission denied for table keywords/);
    await refused('delete B\'s marks', (c) => c.query('DELETE FROM team.ranges'), /permission denied for table ranges/);
  });

  // People's and collection members' stamps (server stamps, team migration 0016): team-people-collections-attacks.test.ts.
  it('people: no fact moved to another clip, none deleted', async () => {
    await refused('move B\'s fact to another clip', (c) => c.query('UPDATE team.people_facts SET clip_id = $1', [clipFree]), /permission denied for table people_facts/);
    await refused('delete B\'s facts', (c) => c.query('DELETE FROM team.people_facts'), /permission denied for table people_facts/);
  });

  it('collection members and the journal: B\'s claim, video and rows stay B\'s', async () => {
    const key = { collectionId: 'col-1', region: 'asia', teamClipId: clipB };
    await refused('take B\'s upload claim', (c) => c.query("UPDATE team.collection_videos SET uploaded_by = $1, upload_expires_at = now() + interval '30 seconds' WHERE clip_id = $2", [A, clipB]), /holds its upload until/);
    // An add older than B's leaves B's add as it is: only the video (or the removal) is new.
    const old = { at: 0, by: A };
    await refused('publish a video id over B\'s claim', (c) => publishCollectionMember(c, { ...key, version: { added: old, removed: null, video: { id: 'vid-evil', state: 'processed', by: A } } }), /holds its upload until/);
    await refused('an upload claim for a year', (c) => claimCollectionUpload(c, A, { ...key, collectionId: 'col-2' }, null, YEAR_MS), /an upload claim runs at most/);
    await refused('repoint B\'s storage keys', (c) => c.query("UPDATE team.uploads SET storage_keys = '[\"evil\"]', seat_id = $1 WHERE request_id = 'req-b'", [A]), /this row is seat .*'s, not this session's/);
    await refused('repoint B\'s task id', (c) => c.query("UPDATE team.tasks SET task_id = 'task-evil' WHERE upload_request_id = 'req-b'"), /this row is seat .*'s, not this session's/);
    await refused('repoint by upsert', (c) => c.query("INSERT INTO team.tasks (clip_id, upload_request_id, kind, region, task_id, seat_id) VALUES ($1, 'req-b', 'embedding', 'asia', 'task-evil', $2) ON CONFLICT (clip_id, upload_request_id, kind, region) DO UPDATE SET task_id = excluded.task_id, seat_id = excluded.seat_id", [clipB, A]), /holds no job of clip/);
    await refused('a journal row in B\'s name', (c) => c.query("INSERT INTO team.uploads (clip_id, request_id, region, storage_keys, seat_id) VALUES ($1, 'req-new', 'asia', '[]', $2)", [clipB, B]), /seat_id is seat .*, but this session is seat/);
    await refused('delete B\'s journal', (c) => c.query('DELETE FROM team.tasks'), /permission denied for table tasks/);
    // Through the app's store: A holds no job of B's clip, so it writes nothing of its journal (team-journal-by-clip.test.ts).
    await refused('a task for B\'s clip through the store', (c) => recordTeamTask(c, A, { teamClipId: clipB, uploadRequestId: 'req-b', kind: 'embedding', region: 'asia', taskId: 'task-a' }), /holds no job of clip/);
  });

  it('clips and places: no rewriting who made a clip, no path out of the share in any spelling, no huge values', async () => {
    await refused('a clip "made" by B', (c) => c.query("INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, 1, 'x.mov', $2)", ['c'.repeat(32), B]), /created_by is seat .*, but this session is seat/);
    await refused('rename B\'s clip', (c) => c.query("UPDATE team.clips SET file_name = 'pwned.mov' WHERE id = $1", [clipB]), /permission denied for table clips/);
    await refused('a no-op over every clip', (c) => c.query('UPDATE team.clips SET file_name = file_name'), /permission denied for table clips/);
    await refused('repoint B\'s place', (c) => c.query("UPDATE team.clip_locations SET rel_path = 'Day1/other.mov' WHERE seen_by = $1", [B]), /permission denied for table clip_locations/);
    await refused('a place "seen" by B', (c) => c.query("INSERT INTO team.clip_locations (clip_id, root_key, rel_path, seen_by) VALUES ($1, 'share', 'Day2/x.mov', $2)", [clipB, B]), /seen by seat .*, but this session is seat/);
    await refused('a 50 MB file name', (c) => c.query('INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, 1, $2, $3)', ['d'.repeat(32), 'x'.repeat(50 * 2 ** 20), A]), /violates check constraint "clips_file_name_size"/);
    await refused(
      'a 3 MB note',
      (c) =>
        c.query(
          `INSERT INTO team.ranges (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by, rating_at, rating_by, created_at, created_by)
           VALUES ($1, $2, 0, 10, 25, 1, now(), $3, 'take', now(), $3, repeat('n', 3000000), now(), $3, now(), $3, now(), $3)`,
          [randomUUID(), clipB, A],
        ),
      /violates check constraint "ranges_text_size"/,
    );
    const places = [
      '../../home/editor/.ssh/id_ed25519', // POSIX climb
      'Day1/../../etc/passwd',
      '..\\..\\Users\\editor\\x.mov', // Windows climb
      'C:\\Users\\editor\\x.mov', // a drive
      'C:x.mov', // drive-relative
      '\\\\server\\share\\x.mov', // UNC
      'Day1/.. /x.mov', // Win32 drops the trailing space: '..'
      'Day1/.../x.mov',
      '/Volumes/NAS/card/x.mov', // a macOS mount, absolute
      'Cafe\u0301/../../x.mov', // decomposed Unicode (macOS's NFD spelling) around a climb
      'Day1/\u202egpj.exe', // a bidirectional override
      'Day1/x.mov\n.jpg', // a line break
      'Day1//x.mov',
      `${'a/'.repeat(600)}x.mov`, // longer than any real path
    ];
    for (const p of places) {
      await refused(`place ${JSON.stringify(p.slice(0, 40))}`, (c) => c.query("INSERT INTO team.clip_locations (clip_id, root_key, rel_path, seen_by) VALUES ($1, 'share', $2, $3)", [clipB, p, A]), /violates check constraint "clip_locations_rel_path_confined"/);
    }
  });

  it('the server: no files read, no migration lock or bookkeeping, no schema changes', async () => {
    await refused('pg_read_file', (c) => c.query("SELECT pg_read_file('/etc/passwd')"), /permission denied for function pg_read_file/);
    await refused('pg_ls_dir', (c) => c.query("SELECT pg_ls_dir('.')"), /permission denied for function pg_ls_dir/);
    await refused('COPY FROM a file', (c) => c.query("COPY team.text_vectors (text_norm) FROM '/etc/passwd'"), /permission denied to COPY from a file|must be superuser|pg_read_server_files/);
    await refused('COPY FROM a program', (c) => c.query("COPY team.text_vectors (text_norm) FROM PROGRAM 'id'"), /permission denied to COPY to or from an external program|must be superuser|pg_execute_server_program/);
    await refused('lo_import', (c) => c.query("SELECT lo_import('/etc/passwd')"), /permission denied for function lo_import/);
    await refused('the migration lock', (c) => c.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]), /permission denied for function pg_advisory_lock/);
    await refused('the migration lock, tried', (c) => c.query('SELECT pg_try_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]), /permission denied for function pg_try_advisory_lock/);
    await refused('forge a migration', (c) => c.query("INSERT INTO team.schema_migrations (version, name, sha256) VALUES (99, 'x', 'x')"), /permission denied for table schema_migrations/);
    await refused('forget a migration', (c) => c.query('DELETE FROM team.schema_migrations'), /permission denied for table schema_migrations/);
    await refused('a table of its own', (c) => c.query('CREATE TABLE team.mine (x int)'), /permission denied for schema team/);
    await refused('a temporary table', (c) => c.query('CREATE TEMP TABLE mine (x int)'), /permission denied to create temporary tables/);
    await refused('a function of the owner\'s', (c) => c.query("SELECT team.retire_seat_login($1)", [loginB.role]), /permission denied for function retire_seat_login/);
    await refused('the feed', (c) => c.query('DELETE FROM team.changes'), /permission denied for table changes/);
    await refused('a forged feed row', (c) => c.query("INSERT INTO team.changes (table_name, row_key, op) VALUES ('ranges', $1, 'DELETE')", [rangeB]), /permission denied for table changes/);
  });

  it('a forged NOTIFY on the team\'s channel (PostgreSQL cannot refuse it) is a wake-up only: the feed and B\'s rows are unchanged', async () => {
    const before = await ofB();
    const cursor = await currentTeamCursor(b);
    await a.query("SELECT pg_notify('team_changes', 'ranges')");
    await a.query("NOTIFY team_changes, 'clip_results'");
    const pulled = await pullTeamChanges(b, cursor);
    expect(pulled.changes).toEqual([]);
    expect(await ofB()).toEqual(before);
  });

  it('URL clips: A writes only a plain web address, and only in a clip row of its own', async () => {
    const addAs = (seat: string, url: string) => (c: pg.Client) => c.query('INSERT INTO team.clips (source_url, file_name, created_by) VALUES ($1, $2, $3)', [url, 'x.mp4', seat]);
    const unsafe = /violates check constraint "clips_source_url_safe"/;
    await refused('a javascript: address', addAs(A, 'javascript:alert(document.cookie)'), unsafe);
    await refused('a file: address', addAs(A, 'file:///etc/passwd'), unsafe);
    await refused('a data: address', addAs(A, 'data:video/mp4;base64,AAAA'), unsafe);
    await refused('credentials in the address', addAs(A, 'https://editor:hunter2@cdn.example/a.mp4'), unsafe);
    await refused('a user in the address (one host shown, another read)', addAs(A, 'https://cdn.example@evil.example/a.mp4'), unsafe);
    await refused('a newline in the address', addAs(A, 'https://cdn.example/a.mp4\nforged log line'), unsafe);
    await refused('a backslash in the address', addAs(A, 'https://cdn.example\\@evil.example/a.mp4'), unsafe);
    await refused('a 3 MB address', addAs(A, `https://cdn.example/${'a'.repeat(3 * 1024 * 1024)}`), unsafe);
    await refused('an address over 2048 bytes', addAs(A, `https://cdn.example/${'a'.repeat(2048)}`), unsafe);
    await refused('a URL clip in B\'s name', addAs(B, 'https://cdn.example/mine.mp4'), /created_by is seat .*, but this session is seat/);
    await refused('rewrite the address of B\'s clip', (c) => c.query("UPDATE team.clips SET source_url = 'https://evil.example/x.mp4' WHERE id = $1", [urlClipB]), /permission denied for table clips/);
    await refused(
      'take B\'s address by upsert',
      (c) => c.query("INSERT INTO team.clips (source_url, file_name, created_by) VALUES ($1, 'evil.mp4', $2) ON CONFLICT (source_url) DO UPDATE SET file_name = excluded.file_name, created_by = excluded.created_by", [URL_B, A]),
      /permission denied for table clips/,
    );
    await refused('give B\'s file clip an address', (c) => c.query("UPDATE team.clips SET fingerprint = NULL, source_url = 'https://evil.example/x.mp4' WHERE id = $1", [clipB]), /permission denied for table clips/);
    await refused('delete B\'s URL clip to add it again', (c) => c.query('DELETE FROM team.clips WHERE id = $1', [urlClipB]), /permission denied for table clips/);
    await refused('results for B\'s URL clip', (c) => c.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, 'url', 'm', 'asia', '[]', 0, $2)", [urlClipB, A]), /holds no job of clip/);
    // The app's own store checks before it sends: a bad address never reaches the server.
    const bad = await adoptTeamUrlClip(a, { sourceUrl: 'javascript:alert(1)', fileName: 'x', seatId: A });
    expect(bad).toBeInstanceOf(AppError);
    expect((bad as AppError).kind).toBe('invalid');
    // A's own address is A's clip (found again when added again); B's address stays B's clip.
    const mine = await adoptTeamUrlClip(a, { sourceUrl: 'https://cdn.example/reviews/A001.mp4', fileName: 'A001.mp4', seatId: A });
    if (mine instanceof AppError) throw mine;
    expect(mine.created).toBe(true);
    expect(await adoptTeamUrlClip(a, { sourceUrl: 'https://cdn.example/reviews/A001.mp4', fileName: 'A001.mp4', seatId: A })).toEqual({ id: mine.id, created: false });
    expect(await adoptTeamUrlClip(a, { sourceUrl: URL_B, fileName: 'other.mp4', seatId: A })).toEqual({ id: urlClipB, created: false });
    expect((await admin.query('SELECT source_url, file_name, created_by FROM team.clips WHERE id = $1', [urlClipB])).rows).toEqual([{ source_url: URL_B, file_name: 'B take.mp4', created_by: B }]);
  });

  it('A still does its own work through the app\'s stores: claim, renew, publish for its job, its marks, its journal', async () => {
    const clipA = (await adoptTeamClip(a, { fingerprint: 'a'.repeat(32), sizeBytes: 10, fileName: 'A.mov', seatId: A })).id;
    expect(await recordTeamClipLocation(a, { clipId: clipA, rootKey: 'share', relPath: 'Day1/A.mov', seatId: A })).toBeNull();
    const look = await lookAtClipJob(a, { seat: A, clipId: clipA, stage: STAGE, profileId: PROFILE, leaseMs: LEASE_MS });
    if (look.kind !== 'claimed') throw new Error(`A did not claim its clip: ${look.kind}`);
    expect(await renewTeamLeases(a, A, [look.job], LEASE_MS)).toEqual([look.job.id]);
    await recordTeamUpload(a, A, { teamClipId: clipA, requestId: 'req-a', region: 'asia', storageKeysJson: '["key-a"]' });
    await recordTeamTask(a, A, { teamClipId: clipA, uploadRequestId: 'req-a', kind: 'embedding', region: 'asia', taskId: 'task-a' });
    const vector = Buffer.alloc(8);
    const published = await publishClipResults(a, A, look.job, {
      clipId: clipA,
      profileId: PROFILE,
      model: 'm',
      region: 'asia',
      shots: [],
      segments: [{ shot_idx: 0, chunk_idx: 0, part: '', start_s: 0, end_s: 1, frames: 8, budget: null, content_sha: null, vector, tags_raw: '{}', shot_size: null, camera_movement: null, shooting_angle: null, shot_size_conf: null, camera_movement_conf: null, shooting_angle_conf: null }],
      thumbnails: [{ shotIdx: 0, kind: 'poster', fileName: 'p.jpg', width: 1, height: 1, frames: null, timeS: 0, image: Buffer.from([0xff]) }],
    });
    expect(published).toEqual({ ok: true, published: true });
    // A edits B's range over the version it read: that is an editor's right; the stamp says A.
    const [r] = (await readTeamMarks(a, { rangeIds: [rangeB], keywordIds: [], clipIds: [] })).ranges;
    await upsertTeamRange(a, { ...r!, name: { value: 'renamed by A', stamp: r!.name.stamp } });
    await upsertTeamKeyword(a, { clipId: clipA, rangeId: null, norm: 'day', display: 'Day', added: { at: Date.now(), by: A }, removed: null });
    await upsertTeamClipMark(a, { clipId: clipA, rating: { value: 'favorite', stamp: { at: Date.now(), by: A } } });
    const row = (await admin.query('SELECT name, name_by FROM team.ranges WHERE id = $1', [rangeB])).rows[0];
    expect(row).toEqual({ name: 'renamed by A', name_by: A });
    const results = (await admin.query('SELECT published_by FROM team.clip_results WHERE clip_id = $1', [clipA])).rows;
    expect(results).toEqual([{ published_by: A }]);
  });

  it('removing B returns its leases to the queue at once and its login stops working', async () => {
    const { removeSeatLogin } = await import('../../../../src-main/core/team/server/seat-login-store');
    await b.end().catch(() => undefined);
    expect(await removeSeatLogin(admin, loginB.role)).toEqual({ jobsReleased: 1, uploadsReleased: 1 });
    const look = await lookAtClipJob(a, { seat: A, clipId: clipB, stage: STAGE, profileId: PROFILE, leaseMs: LEASE_MS });
    expect(look.kind).toBe('claimed');
    await expect(cluster.connect(loginB.config)).rejects.toThrow(/password authentication failed|does not exist/);
  });
});
