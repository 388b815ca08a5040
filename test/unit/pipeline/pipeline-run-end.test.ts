import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { settlementOf, type RunEnd } from '../../../src-main/core/pipeline/queue/run-end';
import { gateLets } from '../../../src-main/core/pipeline/queue/gate';
import type { Job } from '../../../src-main/core/pipeline/queue/job-types';

const job = { id: 1, clipId: 7, stage: 'upload', resource: 'network', priority: 3, attempts: 0, progress: 0.5, note: 'n' } as unknown as Job;
const end = (o: Partial<RunEnd>): RunEnd => ({ job, why: null, outcome: undefined, error: null, now: 1000, backoff: { baseMs: 10, maxMs: 100 }, maxAttempts: 5, ...o });

describe('settlementOf (where a run sends its job)', () => {
  it('done hands its next stages on at least its own priority', () => {
    const s = settlementOf(end({ outcome: { next: [{ clipId: 7, stage: 'submit' }] } as never }));
    expect(s.kind).toBe('done');
    expect(s.fields).toMatchObject({ state: 'done', progress: 1, finished_at: 1000 });
    expect(s.kind === 'done' && s.next[0]?.priority).toBe(3);
  });

  it('again waits its delay, paused when the run was paused', () => {
    const s = settlementOf(end({ why: 'pause', outcome: { again: { delayMs: 50 } } as never }));
    expect(s).toEqual({ kind: 'write', fields: { state: 'paused', not_before: 1050, note: 'n', progress: 0.5 } });
  });

  it('a cancel ends as cancelled; a requeue starts over with fresh attempts', () => {
    expect(settlementOf(end({ why: 'cancel' })).fields).toMatchObject({ state: 'cancelled', finished_at: 1000 });
    expect(settlementOf(end({ why: 'requeue' })).fields).toMatchObject({ state: 'queued', progress: 0, attempts: 0, not_before: null });
  });

  it('an auth error blocks the gate; an invalid one fails the job', () => {
    const blocked = settlementOf(end({ error: new AppError('auth', 'key refused') }));
    expect(blocked).toMatchObject({ kind: 'block', reason: 'auth', message: 'key refused', fields: { state: 'queued' } });
    expect(settlementOf(end({ error: new AppError('invalid', 'bad') })).kind).toBe('failed');
  });
});

describe('gateLets', () => {
  it('a full disk holds every stage; CPU stages pass a network block', () => {
    expect(gateLets('probe', new Set(['disk'] as const))).toBe(false);
    expect(gateLets('probe', new Set(['offline'] as const))).toBe(true);
    expect(gateLets('upload', new Set(['offline'] as const))).toBe(false);
    expect(gateLets('upload', new Set())).toBe(true);
  });
});
