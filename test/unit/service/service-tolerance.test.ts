import { describe, expect, it } from 'vitest';
import { topKBoundFromMessage } from '../../../src-main/core/service/learned-limits';
import { INITIAL_HEALTH, nextHealth, OFFLINE_AFTER_MS, type HealthEvent, type ServiceHealth } from '../../../src-main/core/service/service-health';
import { saysEmulator } from '../../../src-main/core/service/service-identity';
import { classifyTaskFailure } from '../../../src-main/core/service/task-failure';
import { classifyServiceFailure } from '../../../src-shared/contract/service-wait';

const fold = (events: HealthEvent[], from: ServiceHealth = INITIAL_HEALTH) => events.reduce(nextHealth, from);
const failed = (at: number, kind: string, status?: number): HealthEvent => ({ type: 'failed', at, error: { kind: kind as never, message: kind, ...(status ? { status } : {}) } });

describe('service health (state + event -> state)', () => {
  it('one 504 or 502 is a slow service, never an outage', () => {
    expect(fold([{ type: 'succeeded', at: 0 }, failed(1, 'timeout', 504)]).state).toBe('slow');
    expect(fold([failed(1, 'upstream', 502)]).state).toBe('slow');
    expect(fold([failed(1, 'upstream', 502), failed(2, 'timeout', 504), failed(3, 'server', 500), failed(4, 'timeout', 504)]).state).toBe('slow');
  });

  it('is offline only after several attempts in a row reach nobody, or none does for a while', () => {
    const online = fold([{ type: 'succeeded', at: 0 }]);
    expect(fold([failed(10, 'offline')], online).state).toBe('online');
    expect(fold([failed(10, 'offline'), failed(20, 'offline')], online).state).toBe('online');
    expect(fold([failed(10, 'offline'), failed(20, 'offline'), failed(30, 'offline')], online).state).toBe('offline');
    expect(fold([failed(10, 'offline'), failed(10 + OFFLINE_AFTER_MS, 'offline')], online).state).toBe('offline');
  });

  it('any answer breaks a run of unanswered attempts, and a success ends an outage', () => {
    const h = fold([failed(10, 'offline'), failed(20, 'offline'), failed(30, 'timeout', 504), failed(40, 'offline'), failed(50, 'offline')]);
    expect(h).toMatchObject({ state: 'slow', unanswered: 2 });
    const down = fold([failed(1, 'offline'), failed(2, 'offline'), failed(3, 'offline')]);
    expect(down.state).toBe('offline');
    expect(nextHealth(down, { type: 'succeeded', at: 4 })).toEqual({ state: 'online', error: null, unanswered: 0, unansweredSince: null, checkedAt: 4, emulator: false });
  });

  it('who answers: the emulator only when an answer names it; attempts that reach nobody keep the last word', () => {
    const emu = fold([{ type: 'succeeded', at: 1, emulator: true }]);
    expect(emu.emulator).toBe(true);
    expect(fold([failed(2, 'offline'), failed(3, 'offline'), failed(4, 'offline')], emu)).toMatchObject({ state: 'offline', emulator: true });
    expect(fold([{ type: 'failed', at: 2, error: { kind: 'quota', message: 'quota', status: 402 }, emulator: false }], emu).emulator).toBe(false);
    expect(fold([{ type: 'succeeded', at: 2, emulator: false }], emu).emulator).toBe(false);
    expect(INITIAL_HEALTH.emulator).toBe(false);
    // Only an explicit yes counts: a real service sends no such header at all.
    expect([null, undefined, '', '0', 'false', 'no', 'emulator'].map(saysEmulator)).toEqual([false, false, false, false, false, false, false]);
    expect(['1', 'true', ' TRUE ', 'yes'].map(saysEmulator)).toEqual([true, true, true, true]);
  });

  it('a refusal proves the service is there without saying it is slow', () => {
    expect(fold([failed(1, 'auth', 401)]).state).toBe('online');
    expect(fold([failed(1, 'timeout', 504), failed(2, 'invalid', 422)]).state).toBe('slow');
    expect(classifyServiceFailure({ kind: 'quota', status: 402 })).toBe('refused');
    expect(classifyServiceFailure({ kind: 'offline' })).toBe('offline');
    expect(classifyServiceFailure({ kind: 'upstream', status: 502 })).toBe('slow');
  });
});

describe('failed tasks by what the user can do', () => {
  it.each([
    ['model timeout', 'service'],
    ['Model inference timed out after 300s', 'service'],
    ['internal error', 'service'],
    ['GPU out of memory', 'service'],
    ['service temporarily unavailable, try again', 'service'],
    ['invalid model output', 'service'],
    ['processing failed', 'service'],
    [null, 'service'],
    ['could not decode the video tensor', 'input'],
    ['unsupported dtype int16', 'input'],
    ['tensor shape mismatch: expected [T,H,W,3]', 'input'],
    ['video too short', 'input'],
    ['Invalid input: corrupt data', 'input'],
  ] as const)('%s -> %s', (reason, cause) => {
    expect(classifyTaskFailure(reason)).toBe(cause);
  });
});

describe('top_k bound from a refusal', () => {
  it.each([
    ['top_k must be at most 20', 20],
    ['ensure this value is less than or equal to 50', 50],
    ['top_k: Input should be less than or equal to 100', 100],
    ['top_k must be <= 25', 25],
    ['must be an integer from 1 to 30', 30],
    ['top_k must be between 1 and 8', 8],
    ['top_k must be less than 11', 10],
    ['top_k exceeds the maximum: 64', 64],
    ['top_k is too large', undefined],
  ] as const)('%s', (message, bound) => {
    expect(topKBoundFromMessage(message)).toBe(bound);
  });
});
