import { toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import type { TeamLink } from './team-link';

/**
 * When a seat's offline-first module (marks, collections) sends its outbox: a round when the link
 * comes online, `debounceMs` after a local change (a burst goes together), and every `everyMs`
 * whatever happens; one round at a time, and a round asked for while one runs runs once after it.
 */
export interface TeamRoundsOptions {
  link: TeamLink;
  /** One round: read what waits, send it. Rejects when the server cannot be reached (what waits stays for the next). */
  round: () => Promise<void>;
  debounceMs?: number;
  everyMs?: number;
  log: Logger;
  /** Names the module in the log line of a failed round. */
  what: string;
}

export class TeamRounds {
  private timer: NodeJS.Timeout | null = null;
  private every: NodeJS.Timeout | null = null;
  private offOnline: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly o: TeamRoundsOptions) {}

  start(): void {
    this.stopped = false;
    this.offOnline = this.o.link.onOnline((online) => online && this.soon(0));
    this.every = setInterval(() => this.soon(0), this.o.everyMs ?? 30_000);
    this.every.unref?.();
    this.soon(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.offOnline?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.every) clearInterval(this.every);
    this.timer = this.every = this.offOnline = null;
    await this.running?.catch(() => undefined);
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Something changed here: a round soon. */
  edited(): void {
    this.soon(this.o.debounceMs ?? 250);
  }

  /** One round now, or after the one running. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.o.round();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private soon(ms: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.o.link.online()) return; // the link's next onOnline(true) starts a round
      this.sync().catch((e) => this.o.log.warn(`team.${this.o.what}.sync.failed`, { kind: toAppError(e).kind, message: toAppError(e).message }));
    }, ms);
  }
}
