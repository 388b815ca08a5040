import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import { clipFrameCount, frameToSeconds, secondsToFrame, type FrameRate } from '../../../../src-shared/timecode';
import { startAudioGraph } from './LevelMeter';
import { nextShuttle, STOPPED, type ShuttleEvent } from './shuttle';

export interface Playback {
  /** The playhead in seconds, as last rendered. */
  now: number;
  /** The playhead as of the last event, for key presses that come faster than renders. */
  nowRef: RefObject<number>;
  /** The shuttle's signed speed: 0 stopped, 1 play, -2 double speed backwards... */
  speed: number;
  /** Shows frame k (clamped to the clip). */
  seekFrame: (k: number) => void;
  applyShuttle: (e: ShuttleEvent) => void;
}

/**
 * The <video> driven as an NLE's source monitor: frame-exact seeks, J/K/L shuttle (backwards by
 * moving the playhead per animation frame, as browsers do not play in reverse), and the playhead
 * followed while playing. `rangeApplied` is the viewer's "the range it was opened at is marked":
 * until then a video that already has its metadata is put at the range's start.
 */
export function usePlayback(opts: {
  video: RefObject<HTMLVideoElement | null>;
  clip: ClipDetail | null;
  rate: FrameRate | null;
  range: { startS: number; endS: number } | null | undefined;
  rangeApplied: RefObject<boolean>;
  onError: (message: string) => void;
}): Playback {
  const { video, clip, rate, range, rangeApplied, onError } = opts;
  const [now, setNowState] = useState(range?.startS ?? 0);
  const nowRef = useRef(range?.startS ?? 0);
  const setNow = useCallback((t: number) => {
    nowRef.current = t;
    setNowState(t);
  }, []);
  const [speed, setSpeed] = useState(0);
  const shuttle = useRef(STOPPED);

  /**
   * Shows frame k: the middle of its interval, so rounding never lands on the neighbour. Seeks
   * asked while one is in flight are coalesced (only the latest is sent when one lands), as
   * scrubbing players do: a burst of seeks can wedge Chromium's decoder in "seeking" for good.
   * `wanted` is where the paused picture must end up: every landing that is not there (a seek
   * Chromium dropped under load, one asked between its end and its event) sends it again, a few
   * times at most (a file shorter than its catalogued duration clamps the seek).
   */
  const wanted = useRef<number | null>(null);
  const resends = useRef(0);
  const seekFrame = useCallback(
    (k: number) => {
      const v = video.current;
      if (!v || !rate) return;
      const length = clip ? clipFrameCount(clip, rate) : null;
      const last = length !== null ? length - 1 : Number.POSITIVE_INFINITY;
      const t = frameToSeconds(Math.max(0, Math.min(last, k)) + 0.5, rate);
      setNow(t);
      wanted.current = t;
      resends.current = 0;
      if (!v.seeking) v.currentTime = t;
    },
    [video, rate, clip, setNow],
  );

  const applyShuttle = useCallback(
    (e: ShuttleEvent) => {
      const v = video.current;
      const { state, step } = nextShuttle(shuttle.current, e);
      shuttle.current = state;
      setSpeed(state.speed);
      if (!v || !rate) return;
      if (step) {
        v.pause();
        seekFrame(secondsToFrame(nowRef.current, rate) + step);
        return;
      }
      // Playing (either way): the video leads the playhead, no paused target to reach.
      if (state.speed !== 0) wanted.current = null;
      if (state.speed > 0) {
        v.playbackRate = state.speed;
        if (v.paused) {
          const start = () => {
            // Rerouting the sound into the meter's graph while a seek is pending stalls Chromium's
            // pipeline for good, so the graph is made (once) when no seek is in flight.
            if (!v.muted) startAudioGraph(v);
            v.play().catch((err: Error) => {
              // Not an abort by a pause that followed: say why nothing plays.
              if (err.name !== 'AbortError') onError(`Playback did not start: ${err.message}`);
              shuttle.current = { ...shuttle.current, speed: 0 };
              setSpeed(0);
            });
          };
          if (v.seeking) v.addEventListener('seeked', start, { once: true });
          else start();
        }
      } else v.pause();
    },
    [video, rate, seekFrame, onError],
  );

  // Backwards shuttle: the playhead is moved per animation frame.
  useEffect(() => {
    if (speed >= 0) return;
    let raf = 0;
    let last = performance.now();
    const tick = (t: number) => {
      const v = video.current;
      if (!v) return;
      const dt = (t - last) / 1000;
      last = t;
      v.currentTime = Math.max(0, v.currentTime + speed * dt);
      setNow(v.currentTime);
      if (v.currentTime <= 0) applyShuttle({ type: 'stop' });
      else raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [video, speed, applyShuttle, setNow]);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    // While paused the playhead is where the editor put it (seekFrame); while playing, the video's.
    const onTime = () => {
      if (!v.paused) setNow(v.currentTime);
    };
    const onSeeked = () => {
      const w = wanted.current;
      if (w === null || !v.paused || Math.abs(v.currentTime - w) <= 1e-6 || resends.current >= 3) return;
      resends.current++;
      v.currentTime = w;
    };
    const onEnded = () => applyShuttle({ type: 'ended' });
    const onPause = () => {
      if (wanted.current === null && !v.seeking) setNow(v.currentTime);
    };
    const onMeta = () => {
      if (!range) return;
      v.currentTime = range.startS + (rate ? frameToSeconds(0.5, rate) : 0);
      setNow(v.currentTime);
    };
    v.addEventListener('timeupdate', onTime);
    v.addEventListener('seeked', onSeeked);
    v.addEventListener('ended', onEnded);
    v.addEventListener('pause', onPause);
    v.addEventListener('loadedmetadata', onMeta);
    if (v.readyState >= 1 && !rangeApplied.current) onMeta();
    return () => {
      v.removeEventListener('timeupdate', onTime);
      v.removeEventListener('seeked', onSeeked);
      v.removeEventListener('ended', onEnded);
      v.removeEventListener('pause', onPause);
      v.removeEventListener('loadedmetadata', onMeta);
    };
  }, [video, applyShuttle, range, rate, rangeApplied, setNow]);

  // Smooth playhead while playing (timeupdate fires only ~4 times a second).
  useEffect(() => {
    if (speed <= 0) return;
    let raf = 0;
    const tick = () => {
      if (video.current) setNow(video.current.currentTime);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [video, speed, setNow]);

  return { now, nowRef, speed, seekFrame, applyShuttle };
}
