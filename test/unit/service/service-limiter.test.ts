import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { AdaptiveRateLimiter } from '../../../src-main/core/service/http/rate-limiter';
import { resetSharedKeyStates, sharedKeyState } from '../../../src-main/core/service/key-state';
import { withRetry, DEFAULT_RETRY, SYNC_CALL_RETRY, type RetryOptions } from '../../../src-main/core/service/http/retry';
import { pollUntil } from '../../../src-main/core/service/polling';
import { REGIONS, resolveBaseUrl } from '../../../src-main/core/service/regions';
import { ServiceClient } from '../../../src-main/core/service/client';

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

describe('AdaptiveRateLimiter (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = (qps: number, concurrency = 100, adaptive = {}) => new AdaptiveRateLimiter({ qps, concurrency, adaptive }, () => performance.now());

  it('lets a burst start at once (a search\'s calls together) and never more than qps in any 1-second window', async () => {
    const lim = make(6);
    const starts: number[] = [];
    const all = Array.from({ length: 35 }, () => lim.acquire(undefined, 'interactive').then((release) => {
      starts.push(performance.now());
      release();
    }));
    await vi.advanceTimersByTimeAsync(8000);
    await Promise.all(all);
    expect(starts).toHaveLength(35);
    // The first six go at once: the service's per-key QPS allows that burst.
    expect(starts.slice(0, 6).every((t) => t === starts[0])).toBe(true);
    expect(starts[6]).toBeGreaterThan(starts[0]!);
    expect(maxInWindow(starts, 1000)).toBeLessThanOrEqual(6);
    // The average holds the target: 35 starts at 6 a second take about 5 s, not more.
    expect(starts.at(-1)! - starts[0]!).toBeLessThanOrEqual(5 * 1100 + 10);
  });

  it('at a high QPS the burst is bounded and starts are spread, so the service does not see them bunched', async () => {
    const lim = make(150);
    const starts: number[] = [];
    const all = Array.from({ length: 400 }, () => lim.acquire(undefined, 'interactive').then((r) => {
      starts.push(performance.now());
      r();
    }));
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(all);
    expect(starts.filter((t) => t === starts[0]).length).toBe(8);
    expect(maxInWindow(starts, 1000)).toBeLessThanOrEqual(150);
    expect(maxInWindow(starts, 100)).toBeLessThanOrEqual(8 + 15 + 1);
  });

  it('a fractional rate (after a 429) runs at its whole part, and below 1 QPS one start per 1/qps seconds', async () => {
    for (const [qps, windowMs, size] of [[2.5, 1000, 2], [0.5, 2000, 1]] as const) {
      const lim = make(qps);
      const starts: number[] = [];
      const all = Array.from({ length: 6 }, () => lim.acquire(undefined, 'interactive').then((r) => {
        starts.push(performance.now());
        r();
      }));
      await vi.advanceTimersByTimeAsync(20_000);
      await Promise.all(all);
      expect(maxInWindow(starts, windowMs), `qps ${qps}`).toBeLessThanOrEqual(size);
      expect(starts.at(-1)! - starts[0]!).toBeLessThanOrEqual((6 / size - 1) * (windowMs + 100) + 10);
    }
  });

  it('serves interactive callers first, and lets them past a concurrency cap that background work fills', async () => {
    const lim = make(4, 2);
    const order: string[] = [];
    const held: Array<() => void> = [];
    const take = (who: string, priority: 'interactive' | 'background') =>
      lim.acquire(undefined, priority).then((r) => {
        order.push(who);
        held.push(r);
      });
    const bg = Array.from({ length: 6 }, (_, i) => take(`bg${i}`, 'background'));
    // Background starts are paced (1.1 s / 4 apart).
    await vi.advanceTimersByTimeAsync(10);
    expect(order).toEqual(['bg0']);
    await vi.advanceTimersByTimeAsync(300);
    // Two uploads hold both slots, four more wait: a search now still starts at once.
    expect(order).toEqual(['bg0', 'bg1']);
    const search = [take('search-encode', 'interactive'), take('search-collection', 'interactive')];
    await vi.advanceTimersByTimeAsync(10);
    expect(order).toEqual(['bg0', 'bg1', 'search-encode', 'search-collection']);
    // The bucket is empty now (4 per second): the next free token goes to a late search before the queued uploads.
    held.splice(0).forEach((r) => r());
    const late = take('search-late', 'interactive');
    await vi.advanceTimersByTimeAsync(1100);
    expect(order[4]).toBe('search-late');
    held.splice(0).forEach((r) => r());
    await vi.advanceTimersByTimeAsync(5000);
    held.splice(0).forEach((r) => r());
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all([...bg, ...search, late]);
    expect(order.filter((x) => x.startsWith('bg'))).toEqual(['bg0', 'bg1', 'bg2', 'bg3', 'bg4', 'bg5']);
  });

  it('while someone searches, background work leaves room in each window for the next search, and gets it back after', async () => {
    const lim = make(10, 100);
    const starts: { who: string; at: number }[] = [];
    const take = (who: string, priority: 'interactive' | 'background') =>
      lim.acquire(undefined, priority).then((r) => {
        starts.push({ who, at: performance.now() });
        r();
      });
    // A card's uploads keep the key busy, evenly spaced (a bunch would hold a window's slots until it all aged out).
    const bg = Array.from({ length: 200 }, (_, i) => take(`bg${i}`, 'background'));
    await vi.advanceTimersByTimeAsync(3000);
    const bgStarts = starts.map((s) => s.at);
    expect(Math.min(...bgStarts.slice(1).map((t, i) => t - bgStarts[i]!))).toBeGreaterThanOrEqual(1100 / 10 - 1);
    const t0 = performance.now();
    const q1 = Promise.all([0, 1, 2, 3].map((i) => take(`q1-${i}`, 'interactive')));
    await vi.advanceTimersByTimeAsync(1500);
    await q1;
    // The first search after a quiet spell starts its first call at once (background never takes
    // the last tenth of a window), then waits a token at a time for the rest...
    const first = starts.filter((s) => s.who.startsWith('q1-')).map((s) => s.at - t0);
    expect(Math.min(...first)).toBeLessThanOrEqual(5);
    expect(Math.max(...first)).toBeGreaterThan(100);
    // (on the limiter's clock: the evenly spaced background starts age out one every 1.1 s / 10, and
    // the kept tenth of the window is the first call's; before pacing and the standing reserve, 1.1 s)
    expect(Math.max(...first)).toBeLessThanOrEqual(4 * 110 + 5);
    await vi.advanceTimersByTimeAsync(1500);
    // ...the next one, 3 s later, finds its four tokens and room kept: it starts at once.
    const t1 = performance.now();
    const q2 = Promise.all([0, 1, 2, 3].map((i) => take(`q2-${i}`, 'interactive')));
    await vi.advanceTimersByTimeAsync(1500);
    await q2;
    const second = starts.filter((s) => s.who.startsWith('q2-')).map((s) => s.at - t1);
    expect(Math.max(...second)).toBeLessThan(Math.max(...first));
    expect(Math.max(...second)).toBeLessThanOrEqual(5);
    // Background ran at 6 a window meanwhile (4 kept), and at 9 again 10 s after the last search
    // (the standing tenth kept): never the whole window, never much less.
    const bgIn = (from: number, to: number) => starts.filter((s) => s.who.startsWith('bg') && s.at >= from && s.at < to).length;
    expect(bgIn(t1 + 200, t1 + 1400)).toBeLessThanOrEqual(8);
    await vi.advanceTimersByTimeAsync(12_000);
    const t2 = performance.now();
    await vi.advanceTimersByTimeAsync(3300);
    expect(bgIn(t2, t2 + 3300)).toBeGreaterThanOrEqual(24);
    expect(maxInWindow(starts.filter((s) => s.who.startsWith('bg') && s.at >= t2).map((s) => s.at), 1000)).toBeLessThanOrEqual(9);
    await vi.advanceTimersByTimeAsync(30_000);
    await Promise.all(bg);
    expect(maxInWindow(starts.map((s) => s.at).sort((a, b) => a - b), 1000)).toBeLessThanOrEqual(10);
  });

  it('caps requests in flight', async () => {
    const lim = make(1000, 2);
    const released: Array<() => void> = [];
    let started = 0;
    const all = Array.from({ length: 5 }, () => lim.acquire().then((r) => {
      started++;
      released.push(r);
    }));
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toBe(2);
    expect(lim.snapshot()).toMatchObject({ active: 2, queued: 3 });
    released[0]!();
    released[0]!(); // a double release must not free two slots
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toBe(3);
    released.slice(1).forEach((r) => r());
    await vi.advanceTimersByTimeAsync(100);
    released.forEach((r) => r());
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(all);
    expect(started).toBe(5);
  });

  it('halves on 429 once per cooldown, pauses for Retry-After, then recovers slowly', async () => {
    const lim = make(20, 100, { cooldownMs: 1000, recoveryFractionPerSecond: 0.1 });
    lim.onRateLimited();
    expect(lim.snapshot().effectiveQps).toBeCloseTo(10);
    lim.onRateLimited(); // same congestion episode
    expect(lim.snapshot().effectiveQps).toBeCloseTo(10);
    expect(lim.snapshot().decreases).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    // +2 qps per second of recovery, then halved again.
    expect(lim.snapshot().effectiveQps).toBeCloseTo(12);
    lim.onRateLimited(3000);
    expect(lim.snapshot().effectiveQps).toBeCloseTo(6);
    expect(lim.snapshot().pausedForMs).toBe(3000);
    const t0 = performance.now();
    let at = -1;
    const p = lim.acquire().then((r) => {
      at = performance.now();
      r();
    });
    await vi.advanceTimersByTimeAsync(2900);
    expect(at).toBe(-1);
    await vi.advanceTimersByTimeAsync(200);
    await p;
    expect(at - t0).toBeGreaterThanOrEqual(3000);
    const mid = lim.snapshot().effectiveQps;
    expect(mid).toBeGreaterThan(6);
    expect(mid).toBeLessThan(20);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lim.snapshot().effectiveQps).toBe(20);
  });

  it('never drops below the floor', () => {
    const lim = make(32, 1, { cooldownMs: 0, minFraction: 1 / 8 });
    for (let i = 0; i < 20; i++) lim.onRateLimited();
    expect(lim.snapshot().effectiveQps).toBe(4);
  });

  it('removes an aborted waiter from the queue', async () => {
    const lim = make(1, 1);
    const first = await lim.acquire();
    const ac = new AbortController();
    const waiting = lim.acquire(ac.signal);
    expect(lim.snapshot().queued).toBe(1);
    ac.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' });
    expect(lim.snapshot().queued).toBe(0);
    first();
  });
});

describe('shared key state', () => {
  it('is one limiter per key and service, shared by every client', () => {
    resetSharedKeyStates();
    const a = sharedKeyState('http://x', 'k1', { qps: 5, concurrency: 2 });
    const b = sharedKeyState('http://x', 'k1', { qps: 8, concurrency: 2 });
    const c = sharedKeyState('http://x', 'k2', { qps: 5, concurrency: 2 });
    const d = sharedKeyState('http://y', 'k1', { qps: 5, concurrency: 2 });
    expect(a).toBe(b);
    expect(a.limiter.snapshot().maxQps).toBe(8);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    const cfg = { region: 'asia' as const, baseUrls: { asia: 'http://z' }, apiKey: 'k', authHeader: 'x-api-key' as const, qps: 3, concurrency: 1 };
    expect(new ServiceClient(cfg).transport.keyState).toBe(new ServiceClient(cfg).transport.keyState);
  });
});

describe('withRetry', () => {
  const opts: RetryOptions = { ...DEFAULT_RETRY, baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 6, serverAttempts: 3, timeoutAttempts: 2 };

  async function attempts(kinds: string[], retryTimeout = true): Promise<{ calls: number; result: unknown }> {
    let calls = 0;
    try {
      const result = await withRetry(
        async () => {
          const k = kinds[calls++];
          if (k === undefined || k === 'ok') return 'ok';
          throw new AppError(k as never, k);
        },
        opts,
        { retryTimeout },
      );
      return { calls, result };
    } catch (e) {
      return { calls, result: (e as AppError).kind };
    }
  }

  it('retries the kinds the spec says to retry', async () => {
    expect(await attempts(['rate_limit', 'upstream', 'offline', 'ok'])).toEqual({ calls: 4, result: 'ok' });
    expect(await attempts(['server', 'server', 'ok'])).toEqual({ calls: 3, result: 'ok' });
  });

  it('gives up on 500 after the limited attempts and on anything after maxAttempts', async () => {
    expect(await attempts(['server', 'server', 'server', 'ok'])).toEqual({ calls: 3, result: 'server' });
    expect(await attempts(['upstream', 'upstream', 'upstream', 'upstream', 'upstream', 'upstream', 'ok'])).toEqual({ calls: 6, result: 'upstream' });
  });

  it('never retries invalid, auth, quota, not_found, too_large', async () => {
    for (const k of ['invalid', 'auth', 'quota', 'not_found', 'too_large']) expect(await attempts([k, 'ok'])).toEqual({ calls: 1, result: k });
  });

  it('hands a 504 back at once when the caller has an async counterpart', async () => {
    expect(await attempts(['timeout', 'ok'], false)).toEqual({ calls: 1, result: 'timeout' });
    expect(await attempts(['timeout', 'ok'], true)).toEqual({ calls: 2, result: 'ok' });
    expect(await attempts(['timeout', 'timeout', 'ok'], true)).toEqual({ calls: 2, result: 'timeout' });
  });

  it('stops waiting when aborted', async () => {
    const ac = new AbortController();
    const p = withRetry(
      async () => {
        throw new AppError('upstream', 'x');
      },
      { ...opts, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      { retryTimeout: true, signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 5);
    await expect(p).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('gives up on no answer at all after offlineAttempts, and says how long it tried', async () => {
    const few: RetryOptions = { ...opts, offlineAttempts: 3 };
    let calls = 0;
    const p = withRetry(async () => {
      calls++;
      throw new AppError('offline', 'encode_text: service unreachable (ECONNREFUSED)');
    }, few, { retryTimeout: true });
    const err = await p.catch((e: AppError) => e);
    expect(err.kind).toBe('offline');
    expect(err.message).toMatch(/ECONNREFUSED\) \(gave up after 3 attempts in \d+ s\)$/);
    expect(calls).toBe(3);
  });

  it('retries a busy service until the deadline, never past it, and reports every wait', async () => {
    let clock = 0;
    const sync: RetryOptions = { ...SYNC_CALL_RETRY, deadlineMs: 10_000, baseDelayMs: 1000, maxDelayMs: 4000 };
    const waits: { attempt: number; delayMs: number; deadlineAt?: number }[] = [];
    const budgets: (number | undefined)[] = [];
    const p = withRetry(
      async (_attempt, remainingMs) => {
        budgets.push(remainingMs);
        clock += 500; // each answer takes half a second
        throw new AppError('timeout', 'encode_text: 504 request timeout', { status: 504 });
      },
      sync,
      {
        retryTimeout: true,
        random: () => 1,
        now: () => clock,
        onRetry: (i) => {
          waits.push(i);
          clock += i.delayMs;
        },
      },
    );
    const err = await p.catch((e: AppError) => e);
    expect(err).toMatchObject({ kind: 'timeout', status: 504 });
    expect(clock).toBeLessThan(10_000);
    expect(waits.every((w) => w.deadlineAt === 10_000)).toBe(true);
    expect(waits.map((w) => w.delayMs)).toEqual([1000, 2000, 4000]);
    // Each attempt may run only as long as the deadline leaves.
    expect(budgets).toEqual([10_000, 8500, 6000, 1500]);
  });
});

describe('pollUntil', () => {
  it('reports unknown statuses and transient failures, and returns the terminal answer', async () => {
    const answers: Array<string | AppError> = ['pending', 'mystery', new AppError('offline', 'x'), 'processing', 'completed'];
    const seen: string[] = [];
    const r = await pollUntil(
      async () => {
        const a = answers.shift()!;
        if (a instanceof AppError) throw a;
        return a;
      },
      (s) => s === 'completed',
      (s) => String(s),
      { initialDelayMs: 1, maxDelayMs: 2, onProgress: (u) => seen.push(u.error ? `error:${u.error.kind}` : String(u.value)) },
    );
    expect(r).toBe('completed');
    expect(seen).toEqual(['pending', 'mystery', 'error:offline', 'processing', 'completed']);
  });

  it('stops with timeout after maxWait and with cancelled on abort; other errors end it', async () => {
    await expect(pollUntil(async () => 'pending', () => false, () => 'still pending', { initialDelayMs: 5, maxWaitMs: 30 })).rejects.toMatchObject({ kind: 'timeout' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 10);
    await expect(pollUntil(async () => 'pending', () => false, () => '', { initialDelayMs: 5, signal: ac.signal })).rejects.toMatchObject({ kind: 'cancelled' });
    await expect(
      pollUntil(
        async () => {
          throw new AppError('not_found', 'gone');
        },
        () => false,
        () => '',
        { initialDelayMs: 1 },
      ),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('regions', () => {
  it('lists three regions, only asia usable', () => {
    expect(REGIONS.map((r) => [r.id, r.available])).toEqual([
      ['asia', true],
      ['usa', false],
      ['china', false],
    ]);
    expect(resolveBaseUrl('asia', { asia: 'https://api.example.com/v/' })).toBe('https://api.example.com/v');
    for (const region of ['usa', 'china'] as const) {
      expect(() => resolveBaseUrl(region, { usa: 'https://u', china: 'https://c' })).toThrow(/not available/);
      expect(() => new ServiceClient({ region, baseUrls: { [region]: 'https://u' }, apiKey: 'k', authHeader: 'x-api-key', qps: 1, concurrency: 1 })).toThrow(AppError);
    }
    expect(() => resolveBaseUrl('asia', {})).toThrow(/no base URL/);
    expect(() => resolveBaseUrl('asia', { asia: 'ftp://x' })).toThrow(/http/);
  });
});
