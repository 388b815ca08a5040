import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { readTeamMigrations } from '../../../src-main/core/team/server/migrate-team';
import { TeamSeat } from '../../../src-main/core/team/seat/team-seat';
import type { PgCluster } from './pg-cluster';

/** What a test's in-process seat holds open: its sync, its link to the team's server, its catalog. */
export interface OpenSeat {
  sync: { stop(): Promise<void> | void };
  link: { stop(): Promise<void> | void };
  db: { close(): void };
}

/** Closes a test's seats (those it made: a failed set-up leaves some undefined), then its cluster and folder. */
export async function closeSeats(seats: ReadonlyArray<OpenSeat | undefined>, cluster: PgCluster | undefined, tmp: { cleanup(): void }): Promise<void> {
  for (const s of seats) {
    await s?.sync.stop();
    await s?.link.stop();
    s?.db.close();
  }
  await cluster?.stop();
  tmp.cleanup();
}

/** A seat's link to the team as the app makes it: its own login on `cluster`, its catalog, the schema this build knows. */
export async function seatLinkOf(cluster: PgCluster, seatId: string, name: string, db: CatalogDb): Promise<TeamSeat> {
  const login = await cluster.seatLogin(seatId);
  return new TeamSeat({ settings: login.settings(`Edit ${name}`), password: login.password, seatId, db, appSchemaVersion: readTeamMigrations().at(-1)!.version });
}
