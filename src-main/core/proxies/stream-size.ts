import { STREAM_HEIGHTS } from '../../../src-shared/stream-window';

/*
 * A preview window is made at one of STREAM_HEIGHTS (src-shared/stream-window.ts): the proxy's
 * height, or a smaller one, as an NLE drops its playback resolution when the machine cannot keep up
 * rather than stopping play. Scaling to fewer lines and encoding fewer pixels is what a window's
 * transcode can save; the original is decoded whole either way.
 */

/** Below this speed (seconds of clip written per second of transcode) play would wait: the next windows are smaller. */
export const STREAM_SLOWER_BELOW = 1;
/**
 * At or above this speed at a reduced size the next windows go one size up again. Chosen so that
 * the larger size still keeps up: one step up costs at most (540/360)^2 = 2.25 times the pixels,
 * and 3x leaves a margin for the decode that does not shrink, without flapping between two sizes.
 */
export const STREAM_FASTER_FROM = 3;

/** Where the size stands: the index in STREAM_HEIGHTS of the next window's height. */
export interface StreamSize {
  step: number;
}

export const FULL_SIZE: StreamSize = { step: 0 };

/** The height the next windows are made at. */
export const streamHeight = (s: StreamSize): number => STREAM_HEIGHTS[s.step]!;

/**
 * The size after a window was written at `speed` (its length in the clip's seconds over the
 * seconds its transcode took): one step smaller when it ran slower than real time (play would wait
 * at its end), one step back up when it ran comfortably faster, else unchanged. Pure, so that the
 * rule is tested as it is (test/unit/media/stream-size.test.ts); range-streams.ts measures and applies it.
 */
export function nextStreamSize(s: StreamSize, speed: number): StreamSize {
  if (!Number.isFinite(speed) || speed <= 0) return s;
  if (speed < STREAM_SLOWER_BELOW && s.step < STREAM_HEIGHTS.length - 1) return { step: s.step + 1 };
  if (speed >= STREAM_FASTER_FROM && s.step > 0) return { step: s.step - 1 };
  return s;
}
