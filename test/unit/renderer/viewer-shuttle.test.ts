import { describe, expect, it } from 'vitest';
import { nextShuttle, STOPPED, type ShuttleEvent, type ShuttleState } from '../../../src-renderer/src/components/viewer/shuttle';

function run(events: ShuttleEvent[], from: ShuttleState = STOPPED): { state: ShuttleState; steps: number[] } {
  let state = from;
  const steps: number[] = [];
  for (const e of events) {
    const r = nextShuttle(state, e);
    state = r.state;
    if (r.step) steps.push(r.step);
  }
  return { state, steps };
}

describe('J/K/L shuttle', () => {
  it('L plays, repeated L doubles up to 8x', () => {
    expect(run([{ type: 'L' }]).state.speed).toBe(1);
    expect(run([{ type: 'L' }, { type: 'L' }]).state.speed).toBe(2);
    expect(run([{ type: 'L' }, { type: 'L' }, { type: 'L' }, { type: 'L' }, { type: 'L' }]).state.speed).toBe(8);
  });

  it('J plays backwards and speeds up; L after J turns forward at 1x', () => {
    expect(run([{ type: 'J' }, { type: 'J' }]).state.speed).toBe(-2);
    expect(run([{ type: 'J' }, { type: 'J' }, { type: 'L' }]).state.speed).toBe(1);
    expect(run([{ type: 'L' }, { type: 'L' }, { type: 'J' }]).state.speed).toBe(-1);
  });

  it('K stops; K held with J or L steps one frame without playing', () => {
    expect(run([{ type: 'L' }, { type: 'K', down: true }]).state.speed).toBe(0);
    const r = run([{ type: 'K', down: true }, { type: 'L' }, { type: 'L' }, { type: 'J' }, { type: 'K', down: false }]);
    expect(r.steps).toEqual([1, 1, -1]);
    expect(r.state).toEqual({ speed: 0, kHeld: false });
  });

  it('Space toggles normal play and the end of the clip stops', () => {
    expect(run([{ type: 'space' }]).state.speed).toBe(1);
    expect(run([{ type: 'space' }, { type: 'space' }]).state.speed).toBe(0);
    expect(run([{ type: 'J' }, { type: 'space' }]).state.speed).toBe(0);
    expect(run([{ type: 'L' }, { type: 'L' }, { type: 'ended' }]).state.speed).toBe(0);
  });
});
