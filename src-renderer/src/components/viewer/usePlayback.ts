import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import { clipFrameCount, frameToSeconds, secondsToFrame, type FrameRate } from '../../../../src-shared/timecode';
import { startAudioGraph } from './LevelMeter';
import { presentedFrame, reverseTarget } from './presented-frame';
import { nextShuttle, STOPPED, type ShuttleEvent } from './shuttle';

export interface Playback {
  /** The playhead in seconds (the middle of the frame on screen), as last rendered. */
  now: number;
  /** The playhead as of the last event, for key presses that come faster than renders. */
  nowRef: RefObject<number>;
  /** The shuttle's signed speed: 0 stopped, 1 play, -2 double speed backwards... */
  speed: number;
  /** Shows frame k (clamped to the clip). */
  seekFrame: (k: number) => void;
  applyShuttle: (e: ShuttleEvent) => void;
}

/** The <video> element's per-frame callback (Chromium, so Electron too); absent elsewhere. */
type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { mediaTime: number }) => void) => number;
  cancelVideoFrameCallback?: (id: number) => void;
};

/**
 * The <video> driven as an NLE's source monitor. The readout is the frame the browser presented,
 * never a clock: while playing, each presented frame's media time (`requestVideoFrameCallback`)
 * moves the playhead; on a stop, the picture left on screen is sought again by its own frame
 * number, so what is shown, what is read out and what I/O mark are one frame. Frame steps and
 * seeks put the playhead on the frame asked (the middle of its interval, so rounding never lands
 * on a neighbour) and the seek brings the picture there. Reverse play (browsers do not play
 * backwards) is a chain of exact seeks, each asked when the last picture landed, to the frame
 * the shuttle's speed has reached by then: every picture shown is a real frame at its place, as
 * many a second as the decoder can seek (a proxy's short keyframe interval keeps that high).
 * The playhead starts at the range the viewer was opened at; `src` changes when the viewer
 * switches between the original and the proxy, and the playhead stays on its frame.
 */
export function usePlayback(opts: {
  video: RefObject<HTMLVideoElement | null>;
  src: string | null;
  clip: ClipDetail | null;
  rate: FrameRate | null;
  range: { startS: number; endS: number } | null | undefined;
  onError: (message: string) => void;
  /** A preview stream's window ends before the clip: the frame play runs on to (the next window's first), else null. */
  continueAt?: number | null;
}): Playback {
  const { video, src, clip, rate, range, onError } = opts;
  const continueAt = useRef<number | null>(null);
  continueAt.current = opts.continueAt ?? null;
  /** Play reached a window's end and goes on once the next window is placed. */
  const resume = useRef(false);
  const [now, setNowState] = useState(range?.startS ?? 0);
  const nowRef = useRef(range?.startS ?? 0);
  const setNow = useCallback((t: number) => {
    nowRef.current = t;
    setNowState(t);
  }, []);
  const [speed, setSpeed] = useState(0);
  const shuttle = useRef(STOPPED);
  /** The last presented frame's media time (null: none presented since the source was set). */
  const presented = useRef<number | null>(null);

  const lastFrame = useCallback(() => {
    const length = clip && rate ? clipFrameCount(clip, rate) : null;
    return length !== null ? length - 1 : Number.POSITIVE_INFINITY;
  }, [clip, rate]);
  const mid = useCallback((k: number) => (rate ? frameToSeconds(k + 0.5, rate) : 0), [rate]);

  /**
   * Seeks asked while one is in flight are coalesced (only the latest is sent when one lands), as
   * scrubbing players do: a burst of seeks can wedge Chromium's decoder in "seeking" for good.
   * `wanted` is where the paused picture must end up: every landing that is not there (a seek
   * Chromium dropped under load, one asked between its end and its event) sends it again, a few
   * times at most (a file shorter than its catalogued duration clamps the seek).
   */
  const wanted = useRef<number | null>(null);
  const resends = useRef(0);
  /** Counts the playhead's moves, so a settle that waited for the picture yields to a later move. */
  const moves = useRef(0);
  const seekFrame = useCallback(
    (k: number) => {
      const v = video.current;
      if (!v || !rate) return;
      const t = mid(Math.max(0, Math.min(lastFrame(), k)));
      moves.current++;
      setNow(t);
      wanted.current = t;
      resends.current = 0;
      if (!v.seeking) v.currentTime = t;
    },
    [video, rate, mid, lastFrame, setNow],
  );

  /**
   * Stopped after play: the picture on screen becomes the playhead, sought exactly (the seek makes
   * picture and readout one whatever was in flight). The last presented frame, or the one the paused
   * clock stands in when that is later: a frame composited in the same moment as the pause reports
   * its callback after it (seen once in ~30 stops, one frame behind). Backwards, the chain's last
   * asked frame may still land after the stop: the frame presented wins, and a landing elsewhere
   * is sought again.
   */
  const settle = useCallback(
    (forward: boolean) => {
      const v = video.current;
      if (!v || !rate) return;
      const shown = presented.current !== null ? presentedFrame(presented.current, rate) : null;
      const clock = secondsToFrame(v.currentTime, rate);
      seekFrame(shown === null ? clock : forward ? Math.max(shown, clock) : shown);
    },
    [video, rate, seekFrame],
  );

  const applyShuttle = useCallback(
    (e: ShuttleEvent) => {
      const v = video.current;
      const was = shuttle.current.speed;
      const { state, step } = nextShuttle(shuttle.current, e);
      shuttle.current = state;
      setSpeed(state.speed);
      if (!v || !rate) return;
      if (step) {
        v.pause();
        seekFrame(secondsToFrame(nowRef.current, rate) + step);
        return;
      }
      if (state.speed > 0) {
        wanted.current = null;
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
        return;
      }
      v.pause();
      // Backwards: the reverse chain below drives the picture. Stopped: settle on the frame on screen.
      if (state.speed !== 0 || was === 0) return;
      if (was < 0) {
        settle(false);
        return;
      }
      // Forward, a frame decoded before the pause can still be composited after it (under load, one
      // frame ahead of the last callback): two animation frames let it report before the picture
      // is chosen, unless the editor moved the playhead meanwhile.
      const at = moves.current;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (moves.current === at && shuttle.current.speed === 0) settle(true);
        }),
      );
    },
    [video, rate, seekFrame, settle, onError],
  );

  // Backwards shuttle: a chain of exact seeks, each to where the speed has taken the playhead.
  useEffect(() => {
    const v = video.current;
    if (speed >= 0 || !v || !rate) return;
    wanted.current = null;
    const from = secondsToFrame(nowRef.current, rate);
    const t0 = performance.now();
    let asked = from;
    let raf = 0;
    let live = true;
    const next = () => {
      if (!live) return;
      const target = reverseTarget(from, speed, (performance.now() - t0) / 1000, rate);
      if (target === asked && target > 0) {
        raf = requestAnimationFrame(next);
        return;
      }
      asked = target;
      v.currentTime = mid(target);
    };
    const onSeeked = () => {
      if (!live) return;
      setNow(mid(asked));
      if (asked <= 0) applyShuttle({ type: 'stop' });
      else next();
    };
    v.addEventListener('seeked', onSeeked);
    if (v.seeking) v.addEventListener('seeked', next, { once: true });
    else next();
    return () => {
      live = false;
      cancelAnimationFrame(raf);
      v.removeEventListener('seeked', onSeeked);
      v.removeEventListener('seeked', next);
    };
  }, [video, speed, rate, mid, applyShuttle, setNow]);

  // The frame presented: the playhead while playing forward; a paused landing off target is sought again.
  useEffect(() => {
    const v = video.current as FrameCallbackVideo | null;
    if (!v || !rate) return;
    presented.current = null;
    let id = 0;
    const onTime = () => {
      // Without the per-frame callback (not Chromium): the element's clock while playing.
      if (!v.paused) setNow(v.currentTime);
    };
    if (!v.requestVideoFrameCallback) {
      v.addEventListener('timeupdate', onTime);
      return () => v.removeEventListener('timeupdate', onTime);
    }
    const onFrame = (_: number, meta: { mediaTime: number }) => {
      presented.current = meta.mediaTime;
      if (!v.paused && shuttle.current.speed > 0) setNow(mid(presentedFrame(meta.mediaTime, rate)));
      // Paused on a target, the picture is the judge: a frame decoded before the stop can still be
      // presented after the seek landed (seen under load, one frame ahead): seek again, a few times at most.
      const w = wanted.current;
      const k = presentedFrame(meta.mediaTime, rate);
      if (v.paused && !v.seeking && w !== null && k !== secondsToFrame(w, rate)) {
        if (resends.current < 3) {
          resends.current++;
          v.currentTime = w;
        } else {
          // The picture stays where it is: the readout (and so I/O) follows what is on screen.
          wanted.current = mid(k);
          setNow(mid(k));
        }
      }
      id = v.requestVideoFrameCallback!(onFrame);
    };
    id = v.requestVideoFrameCallback(onFrame);
    return () => v.cancelVideoFrameCallback?.(id);
  }, [video, src, rate, mid, setNow]);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const onSeeked = () => {
      const w = wanted.current;
      if (w === null || !v.paused || Math.abs(v.currentTime - w) <= 1e-6 || resends.current >= 3) return;
      resends.current++;
      v.currentTime = w;
    };
    // Stopping from play settles on the last frame (applyShuttle does it for every stop); at the
    // end of a preview stream's window that is not the clip's, the playhead moves on to the next
    // window's first frame (the viewer asks for that window) and play resumes once it is placed.
    const onEnded = () => {
      const next = continueAt.current;
      if (next === null || shuttle.current.speed <= 0) return applyShuttle({ type: 'ended' });
      resume.current = true;
      moves.current++;
      wanted.current = null;
      setNow(mid(next));
    };
    v.addEventListener('seeked', onSeeked);
    v.addEventListener('ended', onEnded);
    return () => {
      v.removeEventListener('seeked', onSeeked);
      v.removeEventListener('ended', onEnded);
    };
  }, [video, applyShuttle, mid, setNow]);

  // A new source (the first, or original <-> proxy) is put on the playhead's frame (at first the
  // range's start) once both its metadata and the clip's rate are known, whichever comes last.
  const placed = useRef<string | null>(null);
  useEffect(() => {
    const v = video.current;
    if (!v || !rate || !src) return;
    const place = () => {
      if (placed.current === src) return;
      placed.current = src;
      seekFrame(secondsToFrame(nowRef.current, rate));
      if (!resume.current) return;
      resume.current = false;
      if (shuttle.current.speed <= 0) return;
      v.addEventListener(
        'seeked',
        () => {
          if (shuttle.current.speed <= 0) return;
          // Playing again: no paused target left to seek back to (as when play starts), and a new
          // source has reset the element's rate to its default.
          wanted.current = null;
          v.playbackRate = shuttle.current.speed;
          v.play().catch(() => undefined);
        },
        { once: true },
      );
    };
    if (v.readyState >= 1) place();
    v.addEventListener('loadedmetadata', place);
    return () => v.removeEventListener('loadedmetadata', place);
  }, [video, src, rate, seekFrame]);

  return { now, nowRef, speed, seekFrame, applyShuttle };
}
