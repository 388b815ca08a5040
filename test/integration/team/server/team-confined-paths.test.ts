import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCatalog, type CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { fingerprintFile } from '../../../../src-main/core/library/fingerprint';
import { TeamClipArrivals } from '../../../../src-main/core/team/syncs/clip-arrivals';
import type { TeamLink } from '../../../../src-main/core/team/seat/team-link';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip, recordTeamClipLocation } from '../../../../src-main/core/team/server/team-clip-store';
import type { Logger } from '../../../../src-main/core/util/logger';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { SeatScheduler } from '../../../../src-main/core/team/seat/seat-scheduler';
import { silentLogger } from '../../../../src-main/core/util/logger';

const PROFILE = 'default';
const SIZE = 4000;

/**
 * Paths confined twice (issue 40 item 2), on a real PostgreSQL with a seat's own credentials: a place
 * that climbs out of the share is refused by the server however it is written, and a seat pointed at
 * a place that leads out of its share, at a folder or at a file of the clip's size with other content
 * does not import it, and says why once.
 */
describeWithPostgres('team library: a clip\'s place on a share is confined when written and when resolved', () => {
  let cluster: PgCluster;
  let seat: pg.Client;
  let admin: pg.Client;
  let db: CatalogDb;
  const tmp = tempDir('rs-team-confined-');
  const share = path.join(tmp.dir, 'share');
  const A = randomUUID();
  const B = randomUUID();
  const insertPlace = (clipId: number, relPath: string, by: pg.Client = seat) =>
    by.query("INSERT INTO team.clip_locations (clip_id, root_key, rel_path, seen_by) VALUES ($1, 'share', $2, $3)", [clipId, relPath, A]);
  const clipOf = async (fingerprint: string, sizeBytes = SIZE, by: pg.Client = seat) => (await adoptTeamClip(by, { fingerprint, sizeBytes, fileName: 'x.mov', seatId: A })).id;
  const bytes = (fill: string) => Buffer.alloc(SIZE, fill);

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    // The team as it was before the check: a row with '..' already written by a seat.
    const known = readTeamMigrations();
    const before = known.findIndex((m) => m.name === 'clip_locations_confined');
    await migrateTeamSchema(admin, known.slice(0, before));
    // Written as the administrator: seats have their own logins only from migration 0011 on.
    await admin.query("INSERT INTO team.seats (seat_id, name, roots) VALUES ($1, 'Bay A', '{share}'), ($2, 'Bay B', '{share}')", [A, B]);
    const old = await clipOf('0'.repeat(32), SIZE, admin);
    await insertPlace(old, 'Day1/../../../home/editor/.ssh/id_ed25519', admin);
    await insertPlace(old, 'Day1/kept.mov', admin);
    await migrateTeamSchema(admin, known);
    seat = await cluster.connectSeat(A);
    await joinSeat(seat, { seatId: A, name: 'Bay A', roots: ['share'] });
    db = openCatalog(path.join(tmp.dir, 'catalog-B.db'));
  }, 120_000);

  afterAll(async () => {
    db?.close();
    await seat?.end();
    await admin?.end();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('the migration deletes the places written before it that it would refuse, and keeps the others', async () => {
    const rows = (await admin.query<{ rel_path: string }>('SELECT rel_path FROM team.clip_locations ORDER BY id')).rows;
    expect(rows).toEqual([{ rel_path: 'Day1/kept.mov' }]);
  });

  it("the server refuses a place that is not a plain path down the share, written by hand with the seat's role", async () => {
    const clip = await clipOf('1'.repeat(32));
    for (const bad of ['..', '../x.mov', 'Day1/../../x.mov', './x.mov', 'a/./x.mov', 'a//x.mov', 'a/', '/etc/passwd', 'C:/x.mov', 'C:\\x.mov', '\\\\server\\x.mov', 'a\\..\\x.mov', 'a/.. /x.mov', 'x\n.mov', 'x\u007f.mov', 'x\u202egpj.mov', 'a'.repeat(1025)]) {
      await expect(insertPlace(clip, bad), JSON.stringify(bad)).rejects.toMatchObject({ code: '23514' });
      // A place is never rewritten by a seat (team migration 0011: no UPDATE of rel_path), checked or not.
      await expect(seat.query("UPDATE team.clip_locations SET rel_path = $1 WHERE rel_path = 'Day1/kept.mov'", [bad]), JSON.stringify(bad)).rejects.toMatchObject({ code: '42501' });
    }
    // The seat does not send one in the first place.
    expect(await recordTeamClipLocation(seat, { clipId: clip, rootKey: 'share', relPath: '../x.mov', seatId: A })).toMatchObject({ kind: 'invalid' });
    expect(await recordTeamClipLocation(seat, { clipId: clip, rootKey: 'share', relPath: 'Jobs/Été/.hidden/A001..mov', seatId: A })).toBeNull();
    const places = (await admin.query<{ rel_path: string }>('SELECT rel_path FROM team.clip_locations WHERE clip_id = $1', [clip])).rows;
    expect(places).toEqual([{ rel_path: 'Jobs/Été/.hidden/A001..mov' }]);
  });

  it('a seat imports the clip at a good place, and not a link out of its share, a folder or a file of the same size with other content', async () => {
    fs.mkdirSync(path.join(share, 'Day1', 'Folder'), { recursive: true });
    fs.writeFileSync(path.join(share, 'Day1', 'good.mov'), bytes('g'));
    // Seat B's own secret, with the very bytes of a team clip: reached only through a link out of the share.
    fs.writeFileSync(path.join(tmp.dir, 'secret.mov'), bytes('s'));
    fs.symlinkSync(path.join(tmp.dir, 'secret.mov'), path.join(share, 'Day1', 'link.mov'));
    fs.writeFileSync(path.join(share, 'Day1', 'other.mov'), bytes('o'));
    const elsewhere = path.join(tmp.dir, 'elsewhere.mov');
    fs.writeFileSync(elsewhere, bytes('e'));

    const good = await clipOf(await fingerprintFile(path.join(share, 'Day1', 'good.mov')));
    const link = await clipOf(await fingerprintFile(path.join(tmp.dir, 'secret.mov')));
    const folder = await clipOf('2'.repeat(32), fs.statSync(path.join(share, 'Day1', 'Folder')).size);
    const other = await clipOf(await fingerprintFile(elsewhere));
    await insertPlace(good, 'Day1/good.mov');
    await insertPlace(link, 'Day1/link.mov');
    await insertPlace(folder, 'Day1/Folder');
    await insertPlace(other, 'Day1/other.mov');
    for (const id of [good, link, folder, other])
      await admin.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, $2, 'm', 'asia', '[]', 0, $3)", [id, PROFILE, A]);

    db.prepare("INSERT INTO volumes (volume_key, mount_path, label, online, last_seen_at) VALUES ('share-b', ?, 'share', 1, ?)").run(share, Date.now());
    const link_: TeamLink = { seatId: B, withClient: (fn) => fn(seat), onChanges: () => () => undefined, online: () => true, onOnline: () => () => undefined };
    const warned: Array<{ msg: string; data?: Record<string, unknown> }> = [];
    const logger: Logger = { debug() {}, info() {}, warn: (msg, data) => warned.push({ msg, data }), error() {}, addSecret() {} };
    const imported: string[][] = [];
    const placed: Array<[number, string, string]> = [];
    const arrivals = new TeamClipArrivals({
      db,
      link: link_,
      scheduler: new SeatScheduler({ link: link_, log: silentLogger }),
      profileId: PROFILE,
      logger,
      retryEveryMs: 50,
      importFiles: async (paths) => imported.push(paths),
      placeAway: async (teamClipId, entry) => (placed.push([teamClipId, entry.rootKey, entry.relPath]), null),
      placeUrl: async () => null,
    });
    arrivals.start();
    // The clips refused are looked for again at every retry: several looks, one log line each.
    await sleep(600);
    await arrivals.stop();

    expect(imported).toEqual([[path.join(share, 'Day1', 'good.mov')]]);
    const refused = warned.filter((w) => w.msg === 'team.arrivals.refused').map((w) => [w.data?.teamClipId, w.data?.reason]);
    expect(refused.sort()).toEqual(
      [
        [folder, 'not_a_file'],
        [link, 'outside_share'],
        [other, 'other_content'],
      ].sort(),
    );
    // Not imported, counted among the clips not found on this workstation (Settings), and listed as
    // offline entries at the place the team recorded (issue 40 item 4).
    expect(arrivals.notFound().clips).toBe(3);
    expect(new Set(placed.map((p) => p.join(' ')))).toEqual(
      new Set([
        [folder, 'share', 'Day1/Folder'],
        [link, 'share', 'Day1/link.mov'],
        [other, 'share', 'Day1/other.mov'],
      ].map((p) => p.join(' '))),
    );
  });
});
