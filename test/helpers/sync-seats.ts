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
