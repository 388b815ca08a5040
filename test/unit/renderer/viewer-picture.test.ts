import { describe, expect, it } from 'vitest';
import { LOADING, MAX_SEEK_TRIES, nextPicture, PLAYING, QUIET_TICKS, seekSeconds, type PictureEvent, type PicturePhase, type PictureStep } from '../../../src-renderer/src/components/viewer/presented-frame';

/** Runs events from a state; the readout is the last one a step set. */
function run(from: PicturePhase, events: PictureEvent[], readout: number | null = null): { state: PicturePhase; readout: number | null; seeks: PictureStep['seek'][] } {
  let state = from;
  const seeks: PictureStep['seek'][] = [];
  for (const e of events) {
    const step = nextPicture(state, e);
    state = step.state;
    if (step.readout !== null) readout = step.readout;
    if (step.seek) seeks.push(step.seek);
  }
  return { state, readout, seeks };
}
const presented = (frame: number): PictureEvent => ({ type: 'presented', frame, end: frame + 1 });
const ticks = (n: number): PictureEvent[] => Array.from({ length: n }, () => ({ type: 'tick' }) as const);

describe('the picture after play, pause and seeks (playing -> pausing -> settled)', () => {
  it('while playing the readout is each frame presented', () => {
    expect(run(PLAYING, [presented(10), presented(11), presented(13)])).toEqual({ state: PLAYING, readout: 13, seeks: [] });
  });

  it('a stop waits for frames composited around the pause, then seeks the last one presented, never a clock', () => {
    // Issue 37's miss: the paused clock stood at 35 while 33 was on screen; the stop settles on 33.
    const stopped = run(PLAYING, [presented(32), presented(33), { type: 'stop', shown: 33 }]);
    expect(stopped.state).toEqual({ phase: 'pausing', shown: 33, quiet: 0 });
    expect(stopped.readout).toBe(33);
    // One more frame reports after the pause: it is the one on screen, and the quiet count starts again.
    const late = run(stopped.state, [...ticks(QUIET_TICKS - 1), presented(34), ...ticks(QUIET_TICKS - 1)], stopped.readout);
    expect(late).toEqual({ state: { phase: 'pausing', shown: 34, quiet: QUIET_TICKS - 1 }, readout: 34, seeks: [] });
    const sought = run(late.state, ticks(1), late.readout);
    expect(sought.seeks).toEqual([{ frame: 34, attempt: 0 }]);
    expect(sought.state).toMatchObject({ phase: 'seeking', target: 34, landed: false });
    // The seek lands and presents its frame: settled, picture and readout one.
    expect(run(sought.state, [{ type: 'seeked' }, presented(34)], 34)).toEqual({ state: { phase: 'settled', frame: 34, tries: 1 }, readout: 34, seeks: [] });
  });

  it('a frame presented after the seek landed that is not the one asked is sought again at another time in the frame', () => {
    const asked = run({ phase: 'settled', frame: 20, tries: 1 }, [{ type: 'seek', frame: 35 }]);
    expect(asked.readout).toBe(35);
    expect(asked.seeks).toEqual([{ frame: 35, attempt: 0 }]);
    // Its frame first, then a stale one decoded before the stop (seen under load, two frames behind).
    const stale = run(asked.state, [{ type: 'seeked' }, presented(35), presented(33)], 35);
    expect(stale.seeks).toEqual([{ frame: 35, attempt: 1 }]);
    expect(stale.readout).toBe(35);
    expect(run(stale.state, [{ type: 'seeked' }, presented(35)], 35)).toMatchObject({ state: { phase: 'settled', frame: 35 }, readout: 35 });
  });

  it('frames presented while a seek is in flight are judged when it lands', () => {
    const asked = run(PLAYING, [{ type: 'seek', frame: 50 }]).state;
    // The seek's own frame reported before its seeked: settled at once.
    expect(run(asked, [presented(47), presented(50), { type: 'seeked' }]).state).toEqual({ phase: 'settled', frame: 50, tries: 1 });
    // Only an older frame reported before the seeked: sought again.
    expect(run(asked, [presented(47), { type: 'seeked' }]).seeks).toEqual([{ frame: 50, attempt: 1 }]);
  });

  it('a picture that will not go where asked is read out as it is after a few tries', () => {
    let state = run(PLAYING, [{ type: 'seek', frame: 9 }]).state;
    let readout: number | null = 9;
    const seeks: PictureStep['seek'][] = [];
    for (let i = 0; i < MAX_SEEK_TRIES + 2; i++) {
      const r = run(state, [{ type: 'seeked' }, presented(7)], readout);
      [state, readout] = [r.state, r.readout];
      seeks.push(...r.seeks);
    }
    expect(seeks).toHaveLength(MAX_SEEK_TRIES - 1);
    expect(new Set(seeks.map((s) => s!.attempt)).size).toBe(MAX_SEEK_TRIES - 1);
    expect(state).toMatchObject({ phase: 'settled', frame: 7 });
    expect(readout).toBe(7);
  });

  it('play and a new seek leave any settle behind; a stop while stopped changes nothing', () => {
    const pausing: PicturePhase = { phase: 'pausing', shown: 4, quiet: 1 };
    expect(nextPicture(pausing, { type: 'play' }).state).toEqual(PLAYING);
    expect(nextPicture(pausing, { type: 'seek', frame: 80 })).toEqual({ state: { phase: 'seeking', target: 80, tries: 1, landed: false, seen: null }, readout: 80, seek: { frame: 80, attempt: 0 } });
    const settled: PicturePhase = { phase: 'settled', frame: 3, tries: 1 };
    expect(nextPicture(settled, { type: 'stop', shown: 9 })).toEqual({ state: settled, readout: null, seek: null });
    expect(nextPicture(settled, { type: 'tick' }).state).toBe(settled);
  });

  it('a source that is loading is not judged until it is placed', () => {
    // Original <-> proxy, or the next preview-stream window: its first picture is not the playhead's yet.
    const held = run(PLAYING, [{ type: 'load' }, presented(0), { type: 'seeked' }, presented(3)]);
    expect(held).toEqual({ state: LOADING, readout: null, seeks: [] });
    const placed = run(held.state, [{ type: 'seek', frame: 480 }, { type: 'seeked' }, presented(480)]);
    expect(placed).toEqual({ state: { phase: 'settled', frame: 480, tries: 1 }, readout: 480, seeks: [{ frame: 480, attempt: 0 }] });
  });

  it('each try asks a different time, all inside the frame', () => {
    const r25 = { num: 25, den: 1 };
    const times = Array.from({ length: MAX_SEEK_TRIES }, (_, a) => seekSeconds(35, a, r25));
    expect(new Set(times).size).toBe(MAX_SEEK_TRIES);
    expect(times[0]).toBeCloseTo(35.5 / 25, 9);
    for (const t of times) expect(Math.floor(t * 25)).toBe(35);
  });
});
