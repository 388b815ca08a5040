import type { FrameRate } from '../../../../src-shared/timecode';

/**
 * The frame number of a presented picture from its media time (`requestVideoFrameCallback`):
 * frame k is presented at k / rate; container time bases round that by a tick or two, hence the
 * nearest frame, not the floor.
 */
export function presentedFrame(mediaTimeS: number, rate: FrameRate): number {
  return Math.max(0, Math.round((mediaTimeS * rate.num) / rate.den));
}

/** Reverse play: the frame `speed` (negative) has reached `elapsedS` after leaving frame `from`. */
export function reverseTarget(from: number, speed: number, elapsedS: number, rate: FrameRate): number {
  return Math.max(0, from - Math.floor((Math.abs(speed) * elapsedS * rate.num) / rate.den));
}
