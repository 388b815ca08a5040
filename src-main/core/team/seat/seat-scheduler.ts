import { toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import type { TeamChange } from '../server/change-store';
import type { TeamLink } from './team-link';

/**
 * The one clock of a joined seat (docs/notes-team-library.md): each sync registers its round (what it
 * sends, and the feed's tables it reads) here instead of keeping timers and subscriptions of its own,
 * and so do the link's pull of the feed (team-seat.ts) and the team's rate (team-pace.ts). A round runs when it starts, when the
 * link comes online, `debounceMs` after `soon()` (a burst of local edits goes together), and every
 * `everyMs`; one at a time per round, and a round asked for while it runs runs once after it. A round
 * due while the link is offline waits for the link's next onOnline(true), but one that runs `evenOffline`
 * (the link's pull, which is how the link finds its server again). One timer serves every round of the
 * seat: it is set for the earliest one due.
 */
export interface RoundSpec {
  /** Names the round in the log line of a failed round (`team.<what>.sync.failed`). */
  what: string;
  /** One round: read what waits, send it. Rejects when the server cannot be reached (what waits stays for the next). */
  run: () => Promise<void>;
  /** A round at least this often (default 30 s). */
  everyMs?: number;
  /** From `soon()` to the round (default 250 ms). */
  debounceMs?: number;
  /** What the sync reads: the feed's tables, each with what it does with their changes (subscribed while on the schedule). */
  reads?: Record<string, (changes: readonly TeamChange[]) => Promise<void>>;
  /** Runs while the link is offline too (default: waits for it): the link's own pull, which brings it back online. */
  evenOffline?: boolean;
}

/** A registered round, as its sync drives it. */
export interface SeatRound {
  /** On the schedule (and reading the feed's tables): a round now, then as RoundSpec says. */
  start(): void;
  /** Off the schedule and the feed; waits for the round running, if any. */
  stop(): Promise<void>;
  isStopped(): boolean;
  /** Something changed here: a round after the debounce. */
  soon(): void;
  /** One round now, or once after the one running. */
  sync(): Promise<void>;
}

interface Entry {
  spec: RoundSpec;
  /** When a round was asked for (start, online, soon); null when none is. */
  due: number | null;
  /** When the periodic round is due. */
  nextEvery: number;
  running: Promise<void> | null;
  again: boolean;
  /** The feed subscriptions of `reads`, undone when the round leaves the schedule. */
  offs: Array<() => void>;
}

export class SeatScheduler {
  private readonly active = new Set<Entry>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private offOnline: (() => void) | null = null;

  constructor(private readonly o: { link: TeamLink; log: Logger }) {}

  register(spec: RoundSpec): SeatRound {
    const e: Entry = { spec, due: null, nextEvery: Infinity, running: null, again: false, offs: [] };
    return {
      start: () => this.begin(e),
      stop: () => this.end(e),
      isStopped: () => !this.active.has(e),
      soon: () => this.want(e, Date.now() + (spec.debounceMs ?? 250)),
      sync: () => this.run(e),
    };
  }

  private begin(e: Entry): void {
    if (this.active.has(e)) return;
    this.active.add(e);
    for (const [table, handler] of Object.entries(e.spec.reads ?? {})) e.offs.push(this.o.link.onChanges(table, handler));
    // The first round on the schedule listens for the link; the last one off it stops listening.
    this.offOnline ??= this.o.link.onOnline((online) => {
      if (online) for (const a of this.active) this.want(a, Date.now());
    });
    e.nextEvery = Date.now() + (e.spec.everyMs ?? 30_000);
    this.want(e, Date.now());
  }

  private async end(e: Entry): Promise<void> {
    this.active.delete(e);
    for (const off of e.offs.splice(0)) off();
    e.due = null;
    if (this.active.size === 0) {
      this.offOnline?.();
      this.offOnline = null;
    }
    this.arm();
    await e.running?.catch(() => undefined);
  }

  private want(e: Entry, at: number): void {
    if (!this.active.has(e)) return;
    e.due = Math.min(e.due ?? Infinity, at);
    this.arm();
  }

  /** The one timer, set for the earliest round due (or none). */
  private arm(): void {
    let next = Infinity;
    for (const e of this.active) next = Math.min(next, e.due ?? Infinity, e.nextEvery);
    if (this.timer && this.timerAt <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = next;
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - Date.now()));
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = Date.now();
    for (const e of this.active) {
      if (Math.min(e.due ?? Infinity, e.nextEvery) > now) continue;
      e.due = null;
      if (e.nextEvery <= now) e.nextEvery = now + (e.spec.everyMs ?? 30_000);
      if (!e.spec.evenOffline && !this.o.link.online()) continue; // the link's next onOnline(true) asks for it again
      this.run(e).catch((err) => this.o.log.warn(`team.${e.spec.what}.sync.failed`, { kind: toAppError(err).kind, message: toAppError(err).message }));
    }
    this.arm();
  }

  private run(e: Entry): Promise<void> {
    if (e.running) {
      e.again = true;
      return e.running;
    }
    e.running = (async () => {
      try {
        do {
          e.again = false;
          await e.spec.run();
        } while (e.again && this.active.has(e));
      } finally {
        e.running = null;
      }
    })();
    return e.running;
  }
}
