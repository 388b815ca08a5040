import type { Client } from 'pg';
import { silentLogger, type Logger } from '../../util/logger';

/**
 * One connection per seat in LISTEN on the seat's own feed channel. A notification is a wake-up, not
 * data, and never trusted for completeness: every (re)connect also wakes the seat, so it pulls with
 * its cursor whatever was missed while the connection was down. Reconnects back off from 1 s,
 * doubling to 30 s.
 */

/**
 * The seat's channel as the server names it (team migration 0017, `team.seat_feed_channel()`): random,
 * told only to this seat, so no other session can wake it. Checked before it goes into LISTEN, which
 * takes no parameters.
 */
const SEAT_CHANNEL = /^team_feed_[0-9a-f]{32}$/;

export type TeamWake = { reason: 'connected' } | { reason: 'notified'; table: string };

export interface TeamChangeListenerOptions {
  /** A new, unconnected client each time (the listener owns it and ends it). */
  newClient: () => Client;
  onWake: (w: TeamWake) => void;
  /** Told each time the connection is lost (the seat shows "team server unreachable"). */
  onDisconnect?: (error: Error) => void;
  firstRetryMs?: number;
  maxRetryMs?: number;
  log?: Logger;
}

/** The wait before the next connection attempt after `failures` attempts in a row failed (>= 1). */
export function reconnectDelayMs(failures: number, firstMs: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, failures - 1));
}

export class TeamChangeListener {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  private readonly firstMs: number;
  private readonly maxMs: number;
  private readonly log: Logger;

  constructor(private readonly o: TeamChangeListenerOptions) {
    this.firstMs = o.firstRetryMs ?? 1000;
    this.maxMs = o.maxRetryMs ?? 30_000;
    this.log = o.log ?? silentLogger;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    const c = this.o.newClient();
    // Without a listener an 'error' event (server gone, backend terminated) would crash the process.
    c.on('error', (e) => this.lost(c, e));
    c.on('end', () => this.lost(c, new Error('the team server closed the connection')));
    let channel: string | null = null;
    c.on('notification', (n) => {
      if (n.channel === channel) this.o.onWake({ reason: 'notified', table: n.payload ?? '' });
    });
    this.client = c;
    try {
      await c.connect();
      const named = (await c.query<{ channel: unknown }>('SELECT team.seat_feed_channel() AS channel')).rows[0]?.channel;
      if (typeof named !== 'string' || !SEAT_CHANNEL.test(named)) throw new Error(`the team server named this seat's channel ${JSON.stringify(named)}`);
      channel = named;
      await c.query(`LISTEN ${named}`);
    } catch (e) {
      this.lost(c, e instanceof Error ? e : new Error(String(e)));
      return;
    }
    if (this.client !== c || this.stopped) return;
    this.failures = 0;
    this.o.onWake({ reason: 'connected' });
  }

  /** The connection `c` is gone (an error and an 'end' may both report it: the first one counts). */
  private lost(c: Client, e: Error): void {
    if (this.client !== c || this.stopped) return;
    this.client = null;
    void c.end().catch(() => undefined);
    this.failures++;
    const wait = reconnectDelayMs(this.failures, this.firstMs, this.maxMs);
    this.log.warn(`team change listener: ${e.message}; reconnecting in ${wait} ms`);
    this.o.onDisconnect?.(e);
    // Its own timer, not a round of the seat's scheduler: a back-off (1 s doubling to 30 s, reset by a
    // connection), not periodic work, set only while the connection is down, and the rounds wait for a
    // link online that this reconnection is one of the ways back to.
    this.timer = setTimeout(() => void this.connect(), wait);
  }
}
