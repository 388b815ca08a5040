import { toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import type { TeamMemberKey } from '../../collections/collection-member-merge';
import { releaseCollectionClaim, renewCollectionClaim } from '../server/team-collection-store';
import { failTeamJob, renewTeamLeases, type TeamLease } from '../server/team-job-store';
import type { SeatRound, SeatScheduler } from './seat-scheduler';
import type { TeamLink } from './team-link';

/**
 * The leases this seat holds, kept in one place (docs/notes-team-library.md): a clip's analysis job
 * (syncs/clip-sharing.ts), the reference queries' job (syncs/text-sharing.ts), a collection upload's
 * claim (syncs/collections-sync.ts). Every third of the lease length (a round of the seat's
 * scheduler) each is renewed, the jobs in one statement; one the server no longer has as this seat's
 * (it ran out in a stall, another seat took it over) is reported lost to its holder and logged. A
 * holder done with its lease drops it (it completed or published); one that stops without a result
 * gives it back, and so does the seat for all it still holds when it stops: another seat takes the
 * work at once instead of when the lease runs out.
 */
export type HeldLease = { kind: 'job'; lease: TeamLease } | { kind: 'upload'; key: TeamMemberKey };

export interface KeptLease {
  /** No more renewals: the holder is done with it (completed, published). */
  drop(): void;
  /** Back to the team now, a job claimable again after `pauseMs`; never throws (a lease not given back runs out). */
  giveBack(pauseMs?: number): Promise<void>;
}

export interface LeaseKeeperOptions {
  link: TeamLink;
  scheduler: SeatScheduler;
  /** The length of every lease this seat takes (default 30 s). */
  leaseMs?: number;
  log: Logger;
}

interface Kept {
  held: HeldLease;
  /** Named in the log lines of the lease (a clip id, the stage). */
  about: Record<string, unknown>;
  onLost?: () => void;
}

export class LeaseKeeper {
  readonly leaseMs: number;
  private readonly kept = new Set<Kept>();
  private readonly round: SeatRound;

  constructor(private readonly o: LeaseKeeperOptions) {
    this.leaseMs = o.leaseMs ?? 30_000;
    this.round = o.scheduler.register({ what: 'leases', run: () => this.renew(), everyMs: Math.max(1000, Math.floor(this.leaseMs / 3)) });
  }

  start(): void {
    this.round.start();
  }

  /** The seat stops: renewals end, and what is still held goes back to the team. */
  async stop(): Promise<void> {
    await this.round.stop();
    await Promise.all([...this.kept].map((k) => this.giveBack(k, 0)));
  }

  /** Renewed from now on until dropped, given back or lost (`onLost` says so). */
  keep(held: HeldLease, about: Record<string, unknown>, onLost?: () => void): KeptLease {
    const k: Kept = { held, about, onLost };
    this.kept.add(k);
    return { drop: () => void this.kept.delete(k), giveBack: (pauseMs = 0) => this.giveBack(k, pauseMs) };
  }

  private async giveBack(k: Kept, pauseMs: number): Promise<void> {
    if (!this.kept.delete(k) || !this.o.link.online()) return;
    const seat = this.o.link.seatId;
    const { held } = k;
    await this.o.link
      .withClient(async (c) => {
        if (held.kind === 'upload') await releaseCollectionClaim(c, seat, held.key);
        else await failTeamJob(c, seat, held.lease, { retry: true, notBefore: pauseMs > 0 ? new Date(Date.now() + pauseMs) : undefined, errorKind: 'cancelled', message: `stopped on seat ${seat}` });
        this.o.log.info('team.lease.released', k.about);
      })
      .catch((e) => this.o.log.debug('team.lease.unreleased', { ...k.about, message: toAppError(e).message }));
  }

  private async renew(): Promise<void> {
    if (this.kept.size === 0) return;
    const seat = this.o.link.seatId;
    const now = [...this.kept];
    const lost = await this.o.link.withClient(async (c) => {
      const jobs = now.flatMap((k) => (k.held.kind === 'job' ? [k.held.lease] : []));
      const renewed = new Set(await renewTeamLeases(c, seat, jobs, this.leaseMs));
      const out: Kept[] = [];
      for (const k of now) {
        const alive = k.held.kind === 'job' ? renewed.has(k.held.lease.id) : await renewCollectionClaim(c, seat, k.held.key, this.leaseMs);
        if (!alive) out.push(k);
      }
      return out;
    });
    for (const k of lost) {
      // Dropped or given back while the renewal ran: not lost, only done with.
      if (!this.kept.delete(k)) continue;
      this.o.log.warn('team.lease.lost', k.about);
      k.onLost?.();
    }
  }
}
