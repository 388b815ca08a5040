import { timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';

/** Timelines start at 01:00:00:00 by broadcast convention (and every NLE's default): as frames. */
export function sequenceStartFrame(rate: FrameRate, dropFrame: boolean): number {
  return timecodeToFrames(dropFrame ? '01:00:00;00' : '01:00:00:00', rate) ?? 0;
}
