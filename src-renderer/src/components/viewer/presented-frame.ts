import { gridSpanOfPicture, pictureAt, pictureOfGrid, timeInPicture } from '../../../../src-shared/picture-grid';
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

/**
 * Where the picture and the readout stand, as a pure transition (state + event -> step): the
 * readout only ever moves to a frame the browser presented or a frame a seek was sent to, and a
 * paused picture is judged by each frame the browser presents, never by the element's clock.
 */
export type PicturePhase =
  /** Playing, forward or reverse's chain of seeks: the readout follows each presented frame. */
  | { phase: 'playing' }
  /** Just stopped: a frame composited around the pause may still report; the last one presented is sought once `quiet` animation frames passed without one. */
  | { phase: 'pausing'; shown: number; quiet: number }
  /** A seek to `target` is in flight (`landed` false; `seen` the last frame presented meanwhile) or has landed; `tries` seeks sent for it. */
  | { phase: 'seeking'; target: number; tries: number; landed: boolean; seen: Shown | null }
  /** Paused with `frame` on screen and read out. */
  | { phase: 'settled'; frame: number; tries: number }
  /** A source is loading: nothing presented is judged, nothing sought, until it is placed (a seek). */
  | { phase: 'loading' };

export type PictureEvent =
  | { type: 'play' }
  /** Play stopped; `shown` the last frame presented (the readout's frame when none was). */
  | { type: 'stop'; shown: number }
  /** `requestVideoFrameCallback`: the picture now on screen, as the frames that show it: [frame, end) (`PictureGrid.shownAt`). */
  | { type: 'presented'; frame: number; end: number }
  /** An animation frame passed. */
  | { type: 'tick' }
  /** The editor asks for a frame (step, jump, click, a new source placed). */
  | { type: 'seek'; frame: number }
  /** The element's `seeked` for the seek the state waits for. */
  | { type: 'seeked' }
  /** A new source is loading (the first, original <-> proxy, the next preview-stream window). */
  | { type: 'load' };

export interface PictureStep {
  state: PicturePhase;
  /** The frame to read out now (null: the readout stays). */
  readout: number | null;
  /** A seek to send: to `frame`, its `attempt`-th try (each try a different time inside the frame: see `seekSeconds`). */
  seek: { frame: number; attempt: number } | null;
}

/** Animation frames without a presented frame before a stop settles. */
export const QUIET_TICKS = 2;
/** Seeks sent for one frame before the readout follows the picture instead. */
export const MAX_SEEK_TRIES = 4;
export const PLAYING: PicturePhase = { phase: 'playing' };
export const LOADING: PicturePhase = { phase: 'loading' };

const stay = (state: PicturePhase): PictureStep => ({ state, readout: null, seek: null });

/** The frames a presented picture is shown at: one on a clip counted at its own rate, one or more (or none) on a conformed clip. */
export interface Shown {
  frame: number;
  end: number;
}

const shows = (p: Shown, frame: number) => frame >= p.frame && frame < p.end;

/** The picture is judged against `target`: the picture that frame shows, settled; another, sought again (a few times), then read out as it is. */
function judge(target: number, picture: Shown, tries: number): PictureStep {
  if (shows(picture, target)) return { state: { phase: 'settled', frame: target, tries }, readout: null, seek: null };
  if (tries < MAX_SEEK_TRIES) return { state: { phase: 'seeking', target, tries: tries + 1, landed: false, seen: null }, readout: null, seek: { frame: target, attempt: tries } };
  return { state: { phase: 'settled', frame: picture.frame, tries }, readout: picture.frame, seek: null };
}

export function nextPicture(s: PicturePhase, e: PictureEvent): PictureStep {
  switch (e.type) {
    case 'play':
      return stay(PLAYING);
    case 'load':
      return stay(LOADING);
    case 'seek':
      return { state: { phase: 'seeking', target: e.frame, tries: 1, landed: false, seen: null }, readout: e.frame, seek: { frame: e.frame, attempt: 0 } };
    case 'stop':
      return s.phase === 'playing' ? { state: { phase: 'pausing', shown: e.shown, quiet: 0 }, readout: e.shown, seek: null } : stay(s);
    case 'tick':
      if (s.phase !== 'pausing') return stay(s);
      if (s.quiet + 1 < QUIET_TICKS) return stay({ ...s, quiet: s.quiet + 1 });
      return { state: { phase: 'seeking', target: s.shown, tries: 1, landed: false, seen: null }, readout: s.shown, seek: { frame: s.shown, attempt: 0 } };
    case 'seeked':
      if (s.phase !== 'seeking' || s.landed) return stay(s);
      // Its frame presented before the event: settled; none yet: its callback is judged when it comes.
      if (s.seen === null) return stay({ ...s, landed: true });
      return judge(s.target, s.seen, s.tries);
    case 'presented':
      switch (s.phase) {
        case 'playing':
          return { state: s, readout: e.frame, seek: null };
        case 'pausing':
          return { state: { ...s, shown: e.frame, quiet: 0 }, readout: e.frame, seek: null };
        case 'seeking':
          return s.landed ? judge(s.target, e, s.tries) : stay({ ...s, seen: { frame: e.frame, end: e.end } });
        case 'settled':
          // A frame decoded before the stop presented after the seek landed (seen under load): sought again.
          return shows(e, s.frame) ? stay(s) : judge(s.frame, e, s.tries);
        case 'loading':
          return stay(s);
      }
  }
}

const SEEK_OFFSETS = [0.5, 0.35, 0.65, 0.25];

/**
 * The time a seek to frame k asks for on its `attempt`-th try: the middle of the frame's interval
 * (rounding never lands on a neighbour), then points either side of it. Chromium elides a seek to
 * the time a paused element already stands at (no new picture is decoded), so a try that repeats
 * the last asked time would leave a wrong picture on screen.
 */
export function seekSeconds(k: number, attempt: number, rate: FrameRate): number {
  return ((k + SEEK_OFFSETS[attempt % SEEK_OFFSETS.length]!) * rate.den) / rate.num;
}

/**
 * Frames <-> pictures for the player. A clip counted at its own rate: frame k is the picture
 * presented at k / rate (`presentedFrame`), sought inside its interval (`seekSeconds`). A conformed
 * clip with its presentation times (`playback.pictureTimes`): the rule of src-shared/picture-grid.ts
 * (grid position k shows the last picture at or before k / rate; a picture reads out as the first
 * grid position showing it), a frame sought inside its picture's interval on screen, so that the
 * picture the player shows is the one the exports hand over for that frame.
 */
export interface PictureGrid {
  /** The frames the picture presented at `mediaTimeS` is shown at. */
  shownAt: (mediaTimeS: number) => Shown;
  /** The time a seek to frame k asks on its `attempt`-th try. */
  seekTime: (k: number, attempt: number) => number;
}

export function pictureGrid(rate: FrameRate, times: readonly number[] | null): PictureGrid {
  if (!times || times.length === 0) {
    return {
      shownAt: (t) => {
        const frame = presentedFrame(t, rate);
        return { frame, end: frame + 1 };
      },
      seekTime: (k, attempt) => seekSeconds(k, attempt, rate),
    };
  }
  return {
    shownAt: (t) => gridSpanOfPicture(times, pictureAt(times, t), rate),
    seekTime: (k, attempt) => timeInPicture(times, pictureOfGrid(times, k, rate), SEEK_OFFSETS[attempt % SEEK_OFFSETS.length]!),
  };
}
