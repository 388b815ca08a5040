import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import { clipFrameCount, frameToSeconds, secondsToFrame, type FrameRate } from '../../../../src-shared/timecode';
import { startAudioGraph } from './LevelMeter';
import { LOADING, nextPicture, pictureGrid, reverseTarget, type PictureEvent, type PicturePhase } from './presented-frame';
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
 * never a clock: `nextPicture` (presented-frame.ts) is the one place that moves it, fed with each
 * presented frame's media time (`requestVideoFrameCallback`), the seeks asked and their `seeked`.
 * While playing the readout follows each presented frame; on a stop it waits until the frames
 * composited around the pause have reported, then seeks the last one presented exactly and judges
 * the picture that seek presents (and any presented later): a wrong one is sought again at another
 * time inside the frame, since Chromium elides a seek to where a paused element stands. Frame steps
 * and seeks put the readout on the frame asked and the seek brings the picture there, judged the
 * same way. Reverse play (browsers do not play backwards) is a chain of exact seeks, each asked
 * when the last picture landed, to the frame the shuttle's speed has reached by then: every
 * picture shown is a real frame at its place, as many a second as the decoder can seek (a proxy's
 * short keyframe interval keeps that high). The playhead starts at the range the viewer was opened
 * at; `src` changes when the viewer switches between the original and the proxy, and the playhead
 * stays on its frame.
 */
export function usePlayback(opts: {
  video: RefObject<HTMLVideoElement | null>;
  src: string | null;
  clip: ClipDetail | null;
  rate: FrameRate | null;
  /** A conformed clip's presentation times (`playback.pictureTimes`): frames map to pictures by them; null: frame k is the picture at k / rate. */
  pictureTimes: readonly number[] | null;
  range: { startS: number; endS: number } | null | undefined;
  /** The frame the first source is placed on: the range's In as the marks count it (null: the start). */
  openAt: number | null;
  onError: (message: string) => void;
  /** A preview stream's window ends before the clip: the frame play runs on to (the next window's first), else null. */
  continueAt?: number | null;
  /** A preview stream's window starts after the clip's: its first frame, which reverse play runs back past into the window before, else null. */
  reverseFloor?: number | null;
}): Playback {
  const { video, src, clip, rate, pictureTimes, range, onError } = opts;
  const openAt = useRef<number | null>(null);
  openAt.current = opts.openAt;
  const grid = useMemo(() => (rate ? pictureGrid(rate, pictureTimes) : null), [rate, pictureTimes]);
  const continueAt = useRef<number | null>(null);
  continueAt.current = opts.continueAt ?? null;
  const reverseFloor = useRef<number | null>(null);
  reverseFloor.current = opts.reverseFloor ?? null;
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
  /** The last presented frame (null: none presented since the source was set). */
  const presented = useRef<number | null>(null);
  const picture = useRef<PicturePhase>(LOADING);

  const lastFrame = useCallback(() => {
    const length = clip && rate ? clipFrameCount(clip, rate) : null;
    return length !== null ? length - 1 : Number.POSITIVE_INFINITY;
  }, [clip, rate]);
  const mid = useCallback((k: number) => (rate ? frameToSeconds(k + 0.5, rate) : 0), [rate]);

  /**
   * Seeks asked while one is in flight are coalesced (only the latest is sent when one lands), as
   * scrubbing players do: a burst of seeks can wedge Chromium's decoder in "seeking" for good. The
   * `seeked` of a seek that was overtaken so is not the picture machine's.
   */
  const pendingSeek = useRef<number | null>(null);
  const sendSeek = useCallback(
    (t: number) => {
      const v = video.current;
      if (!v) return;
      if (v.seeking) pendingSeek.current = t;
      else v.currentTime = t;
    },
    [video],
  );

  const ticking = useRef(0);
  const dispatch = useCallback(
    (e: PictureEvent) => {
      if (!grid) return;
      const step = nextPicture(picture.current, e);
      picture.current = step.state;
      if (step.readout !== null) setNow(mid(step.readout));
      if (step.seek) {
        const { frame, attempt } = step.seek;
        // A paused element asked for the time it stands at decodes nothing (Chromium elides the seek): the next try's time.
        const t = grid.seekTime(frame, attempt);
        sendSeek(video.current?.paused && t === video.current.currentTime ? grid.seekTime(frame, attempt + 1) : t);
      }
      // Stopping: animation frames count the quiet after the pause, one a frame (each tick asks the next while it lasts).
      if (step.state.phase === 'pausing' && !ticking.current) {
        ticking.current = requestAnimationFrame(() => {
          ticking.current = 0;
          dispatch({ type: 'tick' });
        });
      }
    },
    [video, grid, mid, setNow, sendSeek],
  );
  useEffect(() => () => cancelAnimationFrame(ticking.current), []);

  const seekFrame = useCallback(
    (k: number) => {
      if (!video.current || !rate) return;
      dispatch({ type: 'seek', frame: Math.max(0, Math.min(lastFrame(), k)) });
    },
    [video, rate, lastFrame, dispatch],
  );

  /** Play (again): no paused picture left to hold. */
  const play = useCallback(
    (v: HTMLVideoElement, speedNow: number) => {
      dispatch({ type: 'play' });
      v.playbackRate = speedNow;
      return v.play();
    },
    [dispatch],
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
        const start = () => {
          // The speed of now, not of the press that asked: a start put off until a seek ends runs
          // after any L, K or J pressed meanwhile (L L within one seek is 2x, not 1x; K stops it).
          const speedNow = shuttle.current.speed;
          if (speedNow <= 0) return;
          if (!v.paused) {
            v.playbackRate = speedNow;
            return;
          }
          // Rerouting the sound into the meter's graph while a seek is pending stalls Chromium's
          // pipeline for good, so the graph is made (once) when no seek is in flight.
          if (!v.muted) startAudioGraph(v);
          play(v, speedNow).catch((err: Error) => {
            // Not an abort by a pause that followed: say why nothing plays.
            if (err.name !== 'AbortError') onError(`Playback did not start: ${err.message}`);
            shuttle.current = { ...shuttle.current, speed: 0 };
            setSpeed(0);
          });
        };
        // Playing already: a new speed at once. Paused: started now, or once a pending seek has ended.
        if (v.paused && v.seeking) v.addEventListener('seeked', start, { once: true });
        else start();
        return;
      }
      v.pause();
      if (state.speed < 0) {
        // Backwards: the reverse chain below drives the picture, the readout follows what it presents.
        if (was >= 0) dispatch({ type: 'play' });
        return;
      }
      // Stopped: settle on the frame last presented (the readout's when none was), never the clock.
      if (was !== 0) dispatch({ type: 'stop', shown: presented.current ?? secondsToFrame(nowRef.current, rate) });
    },
    [video, rate, seekFrame, dispatch, play, onError],
  );

  // Backwards shuttle: a chain of exact seeks, each to where the speed has taken the playhead.
  useEffect(() => {
    const v = video.current;
    if (speed >= 0 || !v || !rate || !grid) return;
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
      // Before the preview window's first frame (the element cannot seek there): the playhead moves
      // there, the viewer asks the window before, and the chain goes on once it is placed (its seek's `seeked`).
      const floor = reverseFloor.current;
      if (floor !== null && target < floor) {
        setNow(mid(target));
        return;
      }
      const t = grid.seekTime(target, 0);
      // A conformed clip's picture can hold for two frames: the same time again would not be sought.
      if (t === v.currentTime) {
        raf = requestAnimationFrame(next);
        return;
      }
      v.currentTime = t;
    };
    const onSeeked = () => {
      if (!live) return;
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
  }, [video, speed, rate, grid, applyShuttle, setNow, mid]);

  // The frame presented: what the picture machine judges.
  useEffect(() => {
    const v = video.current as FrameCallbackVideo | null;
    if (!v || !grid) return;
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
      const shown = grid.shownAt(meta.mediaTime);
      presented.current = shown.frame;
      dispatch({ type: 'presented', ...shown });
      id = v.requestVideoFrameCallback!(onFrame);
    };
    id = v.requestVideoFrameCallback(onFrame);
    return () => v.cancelVideoFrameCallback?.(id);
  }, [video, src, grid, setNow, dispatch]);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const onSeeked = () => {
      const t = pendingSeek.current;
      if (t !== null) {
        pendingSeek.current = null;
        v.currentTime = t;
        return;
      }
      dispatch({ type: 'seeked' });
    };
    // Stopping from play settles on the last frame (applyShuttle does it for every stop); at the
    // end of a preview stream's window that is not the clip's, the playhead moves on to the next
    // window's first frame (the viewer asks for that window) and play resumes once it is placed.
    const onEnded = () => {
      const next = continueAt.current;
      if (next === null || shuttle.current.speed <= 0) return applyShuttle({ type: 'ended' });
      resume.current = true;
      setNow(mid(next));
    };
    v.addEventListener('seeked', onSeeked);
    v.addEventListener('ended', onEnded);
    return () => {
      v.removeEventListener('seeked', onSeeked);
      v.removeEventListener('ended', onEnded);
    };
  }, [video, applyShuttle, dispatch, mid, setNow]);

  // A new source (the first, or original <-> proxy) is put on the playhead's frame (at first the
  // range's start) once both its metadata and the clip's rate are known, whichever comes last.
  const placed = useRef<string | null>(null);
  useEffect(() => {
    const v = video.current;
    if (!v || !rate || !src) return;
    if (placed.current !== src) dispatch({ type: 'load' });
    const place = () => {
      if (placed.current === src) return;
      const first = placed.current === null;
      placed.current = src;
      pendingSeek.current = null;
      seekFrame(first && openAt.current !== null ? openAt.current : secondsToFrame(nowRef.current, rate));
      if (!resume.current) return;
      resume.current = false;
      if (shuttle.current.speed <= 0) return;
      v.addEventListener(
        'seeked',
        () => {
          // A new source has reset the element's rate to its default: play sets it again.
          if (shuttle.current.speed > 0) play(v, shuttle.current.speed).catch(() => undefined);
        },
        { once: true },
      );
    };
    if (v.readyState >= 1) place();
    v.addEventListener('loadedmetadata', place);
    return () => v.removeEventListener('loadedmetadata', place);
  }, [video, src, rate, seekFrame, play, dispatch]);

  return { now, nowRef, speed, seekFrame, applyShuttle };
}
