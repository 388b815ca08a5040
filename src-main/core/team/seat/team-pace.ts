import { toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import { noteTeamRateLimit, teamPauseLeftMs } from '../server/team-pace-store';
import type { TeamLink } from './team-link';
import type { SeatRound, SeatScheduler } from './seat-scheduler';

/**
 * What the team's rate needs of the seat's service key (service/key-state.ts is the one
 * implementation): the key's limiter is the one place a seat paces its sends, a 429 heard here or the
 * team's hold alike.
 */
export interface SharedKeyPace {
  /** Told of each 429 this seat's calls of the key were answered, with its Retry-After. */
  onRateLimited(listener: (retryAfterMs: number | undefined) => void): () => void;
  /** Every call of the key waits `ms` from now (a longer hold already set stands). */
  holdFor(ms: number): void;
}

export interface TeamPaceOptions {
  link: TeamLink;
  /** The seat's one clock: the team's hold is read on it (at start, when the link comes online, at each change of it, and now and then). */
  scheduler: SeatScheduler;
  /** The key the seat sends with now (null: no key configured); a settings change may give another. */
  key: () => SharedKeyPace | null;
  logger: Logger;
}

/** A read of the team's hold at least this often: a backstop to the feed's changes of it (one cheap statement). */
const READ_EVERY_MS = 60_000;

/**
 * The team-wide rate on the shared key (team migration 0012): a 429 this seat hears is written to the
 * server (clamped there, on its clock), and the team's hold, read at each change of it the feed brings
 * (a NOTIFY wakes every seat's pull), whenever the link comes online and every minute (a round on the
 * seat's scheduler), holds this seat's key.
 * Nothing new paces the sends: the key's limiter pauses as it does for a Retry-After of its own.
 * With the server away each seat keeps only its own 429s' pauses, as a solo seat does.
 */
export class TeamPace {
  private readonly round: SeatRound;
  private watched: { key: SharedKeyPace; off: () => void } | null = null;

  constructor(private readonly o: TeamPaceOptions) {
    this.round = o.scheduler.register({ what: 'pace', run: () => this.read(), reads: { rate_pause: () => this.read() }, everyMs: READ_EVERY_MS });
  }

  start(): void {
    this.watch();
    this.round.start();
  }

  async stop(): Promise<void> {
    await this.round.stop();
    this.watched?.off();
    this.watched = null;
  }

  /** Reads the team's hold and holds this seat's key for what is left of it. */
  async read(): Promise<void> {
    const key = this.watch();
    const leftMs = await this.o.link.withClient((c) => teamPauseLeftMs(c));
    if (leftMs > 0) {
      key?.holdFor(leftMs);
      this.o.logger.info('team.pace.held', { ms: leftMs });
    }
  }

  /** Listens to the key in use now (a new key after a settings change is watched from then on). */
  private watch(): SharedKeyPace | null {
    const key = this.o.key();
    if (key !== this.watched?.key) {
      this.watched?.off();
      this.watched = key ? { key, off: key.onRateLimited((ms) => void this.note(key, ms)) } : null;
    }
    return key;
  }

  private async note(key: SharedKeyPace, retryAfterMs: number | undefined): Promise<void> {
    try {
      const leftMs = await this.o.link.withClient((c) => noteTeamRateLimit(c, retryAfterMs));
      // Another seat's longer hold stands over this one's own Retry-After.
      key.holdFor(leftMs);
    } catch (e) {
      this.o.logger.debug('team.pace.note.failed', { kind: toAppError(e).kind, message: toAppError(e).message });
    }
  }
}
