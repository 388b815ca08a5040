import { describe, expect, it } from 'vitest';
import { ETA_NOTE_MS, ETA_STEP, nextShownEta, type EtaReading, type ShownEta } from '../../../src-main/core/pipeline/view/eta-display';

const MIN = 60_000;
const reading = (rawMs: number | null, now: number, over: Partial<EtaReading> = {}): EtaReading => ({ rawMs, now, activeClips: 300, networkOpen: true, ...over });
const run = (readings: EtaReading[]) => {
  const out: ShownEta[] = [];
  let s: ShownEta | null = null;
  for (const r of readings) out.push((s = nextShownEta(s, r)));
  return out;
};

describe('the ETA the editor sees', () => {
  it('shows the first estimate as it is, and nothing while the model knows nothing', () => {
    expect(nextShownEta(null, reading(null, 0)).ms).toBeNull();
    expect(nextShownEta(null, reading(26 * MIN, 0)).ms).toBe(26 * MIN);
  });

  it('counts down with the clock when the estimate agrees', () => {
    const shown = run([reading(26 * MIN, 0), reading(25 * MIN, MIN), reading(24 * MIN, 2 * MIN)]);
    expect(shown.map((s) => s.ms)).toEqual([26 * MIN, 25 * MIN, 24 * MIN]);
  });

  it('never jumps by more than 1.5x between two refreshes without a cause (the 26 min -> 25 h report)', () => {
    const raws = [26 * MIN, 25 * 60 * MIN, 25 * 60 * MIN, 2 * MIN, 2 * MIN, 40 * MIN];
    const shown = run(raws.map((r, i) => reading(r, i * 2000)));
    for (let i = 1; i < shown.length; i++) {
      // Against the last value counted down by the clock (2 s between refreshes here).
      const a = shown[i - 1]!.ms! - 2000;
      const b = shown[i]!.ms!;
      expect(Math.max(a, b) / Math.min(a, b)).toBeLessThanOrEqual(ETA_STEP + 1e-6);
      expect(shown[i]!.note).toBeNull();
    }
    // A lasting change is followed, step by step.
    const steady = run(Array.from({ length: 12 }, (_, i) => reading(i === 0 ? 26 * MIN : 260 * MIN, i * 1000)));
    expect(steady.at(-1)!.ms).toBeGreaterThan(200 * MIN);
  });

  it('takes a new estimate at once when footage is added or the network pauses, and names why for a while', () => {
    const shown = run([
      reading(10 * MIN, 0, { activeClips: 10 }),
      reading(300 * MIN, 1000, { activeClips: 300 }),
      reading(300 * MIN, 2000, { activeClips: 300 }),
      reading(300 * MIN, 2000 + ETA_NOTE_MS, { activeClips: 300 }),
      reading(900 * MIN, 3000 + ETA_NOTE_MS, { activeClips: 300, networkOpen: false }),
    ]);
    expect(shown[1]).toMatchObject({ ms: 300 * MIN, note: '290 clips added' });
    expect(shown[2]!.note).toBe('290 clips added');
    expect(shown[3]!.note).toBeNull();
    expect(shown[4]).toMatchObject({ ms: 900 * MIN, note: 'uploads on hold' });
  });

  it('names a pause while the network stages hold (no estimate then) and the resume after it', () => {
    const shown = run([
      reading(10 * MIN, 0),
      reading(null, 1000, { networkOpen: false }),
      reading(null, 2000, { networkOpen: false }),
      reading(40 * MIN, 3000),
    ]);
    expect(shown[1]).toMatchObject({ ms: null, note: 'uploads on hold' });
    expect(shown[2]).toMatchObject({ ms: null, note: 'uploads on hold' });
    // Back from unknown: the new estimate as it is, and why it moved.
    expect(shown[3]).toMatchObject({ ms: 40 * MIN, note: 'uploads resumed' });
  });
});
