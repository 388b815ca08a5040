import type { TeamChange } from '../server/change-store';
import type { SeatRound, SeatScheduler } from '../seat/seat-scheduler';

/**
 * A sync of an offline-first outbox (marks, people, collection members): one round on the seat's
 * scheduler, which first takes what arrived for clips linked since, then sends what waits here, and
 * the feed's tables it reads. Starting, stopping, a round soon after a local edit and one round now
 * are the round's own, the same for every outbox.
 */
export abstract class OutboxSync {
  protected readonly rounds: SeatRound;

  protected constructor(scheduler: SeatScheduler, spec: { what: string; tables: readonly string[]; debounceMs?: number; everyMs?: number }) {
    this.rounds = scheduler.register({
      what: spec.what,
      run: async () => {
        await this.catchUpLinked();
        await this.push();
      },
      reads: Object.fromEntries(spec.tables.map((table) => [table, (changes: readonly TeamChange[]) => this.apply(table, changes)])),
      debounceMs: spec.debounceMs,
      everyMs: spec.everyMs,
    });
  }

  /** What the team holds for clips linked here since it arrived. */
  protected abstract catchUpLinked(): Promise<void>;
  /** Sends this seat's outbox. Rejects when the server cannot be reached (what waits stays for the next round). */
  protected abstract push(): Promise<void>;
  /** The feed's changes of one of `tables`. */
  protected abstract apply(table: string, changes: readonly TeamChange[]): Promise<void>;

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Something changed here: a round soon. */
  edited(): void {
    this.rounds.soon();
  }

  /** One round now, or after the one running. */
  sync(): Promise<void> {
    return this.rounds.sync();
  }
}
