import { describe, expect, it } from 'vitest';
import {
  clipFrameCount,
  clipTimebase,
  framesToTimecode,
  parseRational,
  rateFromFps,
  countingOf,
  secondsToFrame,
  shotFrames,
  timecodeAt,
  timecodeToFrames,
  type FrameRate,
} from '../../../src-shared/timecode';

const r2997: FrameRate = { num: 30000, den: 1001 };
const r5994: FrameRate = { num: 60000, den: 1001 };
const r23976: FrameRate = { num: 24000, den: 1001 };
const r25: FrameRate = { num: 25, den: 1 };

// Published drop-frame conversions (SMPTE 12M; e.g. the tables in Apple's and Adobe's timecode
// notes): 29.97 DF skips frame numbers 00 and 01 at each minute but every tenth, 59.94 DF 00-03.
const DF_2997: Array<[number, string]> = [
  [0, '00:00:00;00'],
  [1799, '00:00:59;29'],
  [1800, '00:01:00;02'],
  [3597, '00:01:59;29'],
  [3598, '00:02:00;02'],
  [17981, '00:09:59;29'],
  [17982, '00:10:00;00'],
  [17983, '00:10:00;01'],
  [19781, '00:10:59;29'],
  [19782, '00:11:00;02'],
  [107892, '01:00:00;00'],
  [2589407, '23:59:59;29'],
];
const DF_5994: Array<[number, string]> = [
  [3599, '00:00:59;59'],
  [3600, '00:01:00;04'],
  [35964, '00:10:00;00'],
  [215784, '01:00:00;00'],
];

describe('SMPTE timecode', () => {
  it.each(DF_2997)('29.97 DF frame %i is %s and back', (frames, tc) => {
    expect(framesToTimecode(frames, r2997, true)).toBe(tc);
    expect(timecodeToFrames(tc, r2997)).toBe(frames);
  });

  it.each(DF_5994)('59.94 DF frame %i is %s and back', (frames, tc) => {
    expect(framesToTimecode(frames, r5994, true)).toBe(tc);
    expect(timecodeToFrames(tc, r5994)).toBe(frames);
  });

  it('round-trips every frame of the first 25 hours at 29.97 DF (wrapping at 24 h)', () => {
    const perDay = 2589408;
    for (let f = 0; f < perDay + 20000; f += 7) {
      const tc = framesToTimecode(f, r2997, true);
      expect(timecodeToFrames(tc, r2997)).toBe(f % perDay);
    }
  });

  it('refuses the numbers drop-frame skips, and frames beyond the rate', () => {
    expect(timecodeToFrames('00:01:00;00', r2997)).toBeNull();
    expect(timecodeToFrames('00:01:00;01', r2997)).toBeNull();
    expect(timecodeToFrames('00:10:00;00', r2997)).toBe(17982);
    expect(timecodeToFrames('00:00:00:25', r25)).toBeNull();
  });

  it('counts non-drop rates by their nominal frames per second', () => {
    expect(framesToTimecode(86400, r23976, false)).toBe('01:00:00:00');
    expect(framesToTimecode(90000, r25, false)).toBe('01:00:00:00');
    expect(framesToTimecode(1800, r2997, false)).toBe('00:01:00:00');
    expect(timecodeToFrames('10:00:00:00', r23976)).toBe(864000);
  });

  it('maps seconds to the frame they show, exactly on frame starts', () => {
    for (let k = 0; k < 5000; k += 13) expect(secondsToFrame((k * 1001) / 30000, r2997)).toBe(k);
    expect(secondsToFrame(10, r25)).toBe(250);
    expect(secondsToFrame(0.0399, r25)).toBe(0);
  });

  it('starts a clip at its start timecode, drop-frame from the label', () => {
    const df = clipTimebase(r2997, '01:00:00;00');
    expect(df).toEqual({ rate: r2997, dropFrame: true, startFrame: 107892 });
    // 60 wall seconds are 1798.2 frames; 60.06 s are exactly 1800, which skip to ;02 at the minute.
    expect(timecodeAt(df, 60)).toBe('01:00:59;28');
    expect(timecodeAt(df, 60.06)).toBe('01:01:00;02');
  });

  it('counts a clip without a start timecode from zero', () => {
    expect(timecodeAt(clipTimebase(r25, null), 10)).toBe('00:00:10:00');
    expect(timecodeAt(clipTimebase(r2997, null), 0)).toBe('00:00:00;00');
    expect(clipTimebase(r23976, '00:59:59:00').startFrame).toBe(86376);
  });

  it('snaps probed rates to the rationals NLEs use', () => {
    expect(rateFromFps(23.976023976)).toEqual(r23976);
    expect(rateFromFps(29.97)).toEqual(r2997);
    expect(rateFromFps(59.94006)).toEqual(r5994);
    expect(rateFromFps(25)).toEqual(r25);
    // Variable-rate phone footage averaging 29.87 fps is conformed to 29.97, 24.6 to 25.
    expect(countingOf(29.87, true)).toEqual({ rate: r2997, conformed: true });
    expect(countingOf(24.6, true)).toEqual({ rate: r25, conformed: true });
    expect(countingOf(29.97, true)).toEqual({ rate: r2997, conformed: true });
    expect(parseRational('30000/1001')).toEqual(r2997);
    expect(parseRational('0/0')).toBeNull();
  });

  it('counts odd constant rates in a rate an NLE shows: whole rates as they are, fractions on a standard multiple or the next standard rate', () => {
    expect(countingOf(25)).toEqual({ rate: r25, conformed: false });
    expect(countingOf(10)).toEqual({ rate: { num: 10, den: 1 }, conformed: false });
    expect(countingOf(15)).toEqual({ rate: { num: 15, den: 1 }, conformed: false });
    // 12.5 fps (a CCTV-style clip): each picture is 2 frames of 25 fps timecode, a timecode second a second.
    expect(countingOf(12.5)).toEqual({ rate: r25, conformed: true });
    expect(countingOf(14.985)).toEqual({ rate: r2997, conformed: true });
    // 179/6 = 29.833 fps: the next standard rate above it, so no two pictures share a timecode frame.
    expect(countingOf(179 / 6)).toEqual({ rate: r2997, conformed: true });
    expect(countingOf(29.87)).toEqual({ rate: r2997, conformed: true });
    expect(countingOf(130.5)).toEqual({ rate: { num: 120, den: 1 }, conformed: true });
    // The 12.5 fps clip of 30.16 s: 754 frames of 25 fps, 00:00:30:04 long, never 13 frames a second.
    const c = countingOf(12.5);
    const frames = clipFrameCount({ frameCount: 377, durationS: 30.16, conformed: c.conformed }, c.rate)!;
    expect(frames).toBe(754);
    expect(framesToTimecode(frames, c.rate, false)).toBe('00:00:30:04');
    // Picture 5 of the 12.5 fps clip (0.4 s) is timecode frame 10.
    expect(shotFrames({ startS: 0.4, endS: 0.8, startFrame: 5, endFrame: 10 }, c.rate, c.conformed)).toEqual({ inFrame: 10, outFrame: 20 });
    expect(parseRational('30000/1001')).toEqual(r2997);
    expect(parseRational('0/0')).toBeNull();
  });

  it("places a constant-rate shot by its decoded frame numbers, a variable-rate one by its times on the conformed grid", () => {
    // showinfo's six digits: frame 221 at 24 fps printed 9.20833 s, below the frame's start.
    const rounded = { startS: 9.20833, endS: 12.5, startFrame: 221, endFrame: 300 };
    expect(secondsToFrame(rounded.startS, { num: 24, den: 1 })).toBe(220);
    expect(shotFrames(rounded, { num: 24, den: 1 }, false)).toEqual({ inFrame: 221, outFrame: 300 });
    // Conformed: the first grid position at or after each time (grid 29 is at 0.968 s, before the shot's first picture at 1 s, and shows the picture before it).
    expect(shotFrames({ startS: 1, endS: 2, startFrame: 28, endFrame: 55 }, r2997, true)).toEqual({ inFrame: 30, outFrame: 60 });
    // A picture on a grid time is that grid position (within float error).
    expect(shotFrames({ startS: (30 * 1001) / 30000, endS: (60 * 1001) / 30000, startFrame: 28, endFrame: 55 }, r2997, true)).toEqual({ inFrame: 30, outFrame: 60 });
    expect(shotFrames({ startS: 0, endS: 4.2, startFrame: null, endFrame: null }, r25, false)).toEqual({ inFrame: 0, outFrame: 105 });
  });

  it('ends a clip at its last video frame, not where the container (its audio) ends', () => {
    // mdn_flower.mp4: 150 frames at 29.97 (5.005 s), container 5.055 s.
    expect(clipFrameCount({ frameCount: 150, durationS: 5.055, conformed: false }, r2997)).toBe(150);
    expect(clipFrameCount({ frameCount: null, durationS: 5.005, conformed: false }, r2997)).toBe(150);
    expect(clipFrameCount({ frameCount: 140, durationS: 5.005, conformed: true }, r2997)).toBe(150);
    expect(clipFrameCount({ frameCount: null, durationS: null, conformed: false }, r2997)).toBeNull();
  });
});
