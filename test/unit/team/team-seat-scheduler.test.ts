import { afterEach, describe, expect, it } from 'vitest';
import { SeatScheduler, type SeatRound } from '../../../src-main/core/team/seat/seat-scheduler';
import type { TeamLink } from '../../../src-main/core/team/seat/team-link';
import type { Logger } from '../../../src-main/core/util/logger';

/**
 * The seat's one clock (team/seat/seat-scheduler.ts), with a link whose reachability the test sets:
 * when a sync's round runs (start, online, after a burst of edits, periodically), that it never
 * runs twice at once, and that a stopped round runs no more. Counts are asserted, never times: each
 * wait is a bound on something that must happen.
 */
class FakeLink implements TeamLink {
  readonly seatId = 'seat-a';
  private up = true;
  private readonly listeners = new Set<(online: boolean) => void>();
  withClient<T>(): Promise<T> {
    throw new Error('not used');
  }
  /** The feed's tables read now. */
  readonly reading = new Set<string>();
  onChanges(table: string): () => void {
    this.reading.add(table);
    return () => this.reading.delete(table);
  }
  online(): boolean {
    return this.up;
  }
  onOnline(listener: (online: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(up: boolean): void {
    this.up = up;
    for (const l of this.listeners) l(up);
  }
  listening(): number {
    return this.listeners.size;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
    await sleep(5);
  }
}

const warned: string[] = [];
const log: Logger = { debug() {}, info() {}, warn: (msg) => void warned.push(msg), error() {}, addSecret() {} };

describe('the seat scheduler', () => {
  const started: SeatRound[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((r) => r.stop()));
    warned.length = 0;
  });
  const start = (r: SeatRound) => {
    started.push(r);
    r.start();
    return r;
  };

  it('runs a round when it starts, and one more when the link comes back', async () => {
    const link = new FakeLink();
    let n = 0;
    start(new SeatScheduler({ link, log }).register({ what: 't', run: async () => void n++, everyMs: 60_000 }));
    await until('the first round', () => n === 1);
    link.set(false);
    link.set(true);
    await until('the round at online', () => n === 2);
  });

  it('holds the rounds due while the link is down until it is up', async () => {
    const link = new FakeLink();
    link.set(false);
    let n = 0;
    const r = start(new SeatScheduler({ link, log }).register({ what: 't', run: async () => void n++, everyMs: 20, debounceMs: 1 }));
    r.soon();
    await sleep(100);
    expect(n).toBe(0);
    link.set(true);
    await until('a round once online', () => n >= 1);
  });

  it("runs a round marked evenOffline while the link is down (the link's own pull), and holds the others", async () => {
    const link = new FakeLink();
    link.set(false);
    const scheduler = new SeatScheduler({ link, log });
    let pulls = 0;
    let syncs = 0;
    const pull = start(scheduler.register({ what: 'pull', run: async () => void pulls++, everyMs: 20, debounceMs: 1, evenOffline: true }));
    start(scheduler.register({ what: 't', run: async () => void syncs++, everyMs: 20, debounceMs: 1 }));
    await until('periodic pulls while offline', () => pulls >= 3);
    pull.soon();
    const before = pulls;
    await until('a pull asked for while offline', () => pulls > before);
    expect(syncs).toBe(0);
    link.set(true);
    await until('the other round once online', () => syncs >= 1);
  });

  it('sends a burst of edits in one round after the debounce', async () => {
    const link = new FakeLink();
    let n = 0;
    const r = start(new SeatScheduler({ link, log }).register({ what: 't', run: async () => void n++, everyMs: 60_000, debounceMs: 50 }));
    await until('the first round', () => n === 1);
    for (let i = 0; i < 20; i++) r.soon();
    await until('the round of the burst', () => n === 2);
    await sleep(150);
    expect(n).toBe(2);
  });

  it('runs each round periodically, many rounds on one clock', async () => {
    const link = new FakeLink();
    const scheduler = new SeatScheduler({ link, log });
    const counts = [0, 0, 0];
    counts.forEach((_, i) => start(scheduler.register({ what: `t${i}`, run: async () => void counts[i]!++, everyMs: 10 + i * 5 })));
    await until('three rounds of each', () => counts.every((c) => c >= 3));
    // One listener on the link for all of them.
    expect(link.listening()).toBe(1);
  });

  it('never runs a round twice at once: one asked for meanwhile runs once after', async () => {
    const link = new FakeLink();
    let running = 0;
    let most = 0;
    let n = 0;
    let release: () => void = () => undefined;
    const r = start(
      new SeatScheduler({ link, log }).register({
        what: 't',
        everyMs: 60_000,
        run: async () => {
          running++;
          most = Math.max(most, running);
          n++;
          await new Promise<void>((ok) => (release = ok));
          running--;
        },
      }),
    );
    await until('the first round running', () => n === 1);
    const asked = [r.sync(), r.sync(), r.sync()];
    release();
    await until('the round asked for meanwhile', () => n === 2);
    release();
    await Promise.all(asked);
    expect(n).toBe(2);
    expect(most).toBe(1);
  });

  it('logs a failed round and keeps the schedule', async () => {
    const link = new FakeLink();
    let n = 0;
    start(
      new SeatScheduler({ link, log }).register({
        what: 'flaky',
        everyMs: 10,
        run: async () => {
          n++;
          if (n === 1) throw new Error('server away');
        },
      }),
    );
    await until('rounds after the failure', () => n >= 3);
    expect(warned).toContain('team.flaky.sync.failed');
  });

  it('runs nothing of a stopped round, and stops listening with the last one', async () => {
    const link = new FakeLink();
    let n = 0;
    const reads = { ranges: async () => undefined, keywords: async () => undefined };
    const r = new SeatScheduler({ link, log }).register({ what: 't', run: async () => void n++, reads, everyMs: 10, debounceMs: 1 });
    expect(r.isStopped()).toBe(true);
    expect(link.reading.size).toBe(0);
    r.start();
    // What the sync reads of the feed is read while its round is on the schedule.
    expect([...link.reading].sort()).toEqual(['keywords', 'ranges']);
    await until('the first round', () => n >= 1);
    await r.stop();
    expect(link.reading.size).toBe(0);
    expect(r.isStopped()).toBe(true);
    const after = n;
    r.soon();
    link.set(true);
    await sleep(80);
    expect(n).toBe(after);
    expect(link.listening()).toBe(0);
  });
});
