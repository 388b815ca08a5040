import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import type { Result } from '../../../../src-shared/contract';
import type { AppError } from '../../../../src-shared/errors';
import { clipFrameCount, framesToTimecode, frameToSeconds, rateLabel, secondsToFrame, shotFrames } from '../../../../src-shared/timecode';
import { api } from '../../api/client';
import { timebaseOf } from '../timecode-format';
import { FaceBoxes, type FaceFrames } from './FaceBoxes';
import { LevelMeter, startAudioGraph } from './LevelMeter';
import { trapTab, viewerKeyDown, viewerKeyUp, type ViewerAction } from './keys';
import { markIn, marksOfRange, markOut, NO_MARKS, type Marks } from './marks';
import { MarksPanel } from './MarksPanel';
import { loadOverlay, moveOverlay, OVERLAY_POSITION_LABEL, OVERLAY_POSITIONS, saveOverlay, toggleOverlay, type OverlayPosition, type OverlaySettings } from './overlay';
import { nextShuttle, STOPPED, type ShuttleEvent } from './shuttle';
import { TagOverlay } from './TagOverlay';
import { ViewerTimeline } from './ViewerTimeline';
import './viewer.css';

type Spans = Result<'search.clipTags'>['spans'];

export interface ViewerProps {
  clipId: number;
  /** Open at this range (a search result, a shot): playhead at its start, In/Out around it. */
  range?: { startS: number; endS: number } | null;
  onClose: () => void;
  /** Actions of the view that opened it (Find similar in Search). */
  extra?: ReactNode;
}

const isTyping = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);

/** What Tab can reach inside the viewer, in document order. */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The one viewer (Library cards and shots, search results, collections): plays the clip with its
 * sound, J/K/L shuttle, frame steps, In/Out marks, shot jumps, source timecode, the shot strip and
 * indexed segments under the picture, and the tags of the span being shown over it.
 */
export function Viewer({ clipId, range, onClose, extra }: ViewerProps): ReactNode {
  const video = useRef<HTMLVideoElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const [clip, setClip] = useState<ClipDetail | null>(null);
  const [spans, setSpans] = useState<Spans>([]);
  const [faces, setFaces] = useState<FaceFrames>([]);
  const [now, setNowState] = useState(range?.startS ?? 0);
  // The playhead as of the last event, for key presses that come faster than renders.
  const nowRef = useRef(range?.startS ?? 0);
  const setNow = useCallback((t: number) => {
    nowRef.current = t;
    setNowState(t);
  }, []);
  const [error, setError] = useState<string | null>(null);
  const [muted, setMuted] = useState(false);
  const [speed, setSpeed] = useState(0);
  const shuttle = useRef(STOPPED);
  const tb = useMemo(() => (clip ? timebaseOf(clip) : null), [clip]);
  const [marks, setMarks] = useState<Marks>(NO_MARKS);
  const { inFrame, outFrame } = marks;
  const [overlay, setOverlayState] = useState<OverlaySettings>(() => loadOverlay(localStorage));
  const setOverlay = (next: OverlaySettings) => {
    setOverlayState(next);
    saveOverlay(localStorage, next);
  };

  useEffect(() => {
    let live = true;
    const load = () => {
      api.call('library.get', { clipId }).then((c) => live && setClip(c)).catch((e: AppError) => live && setError(e.message));
      api.call('search.clipTags', { clipId }).then((r) => live && setSpans(r.spans)).catch(() => undefined);
    };
    load();
    const off = api.on('catalog.changed', (p) => {
      if (!p.clipIds || p.clipIds.includes(clipId)) load();
    });
    return () => {
      live = false;
      off();
    };
  }, [clipId]);

  // A range to open at becomes In/Out once the rate is known.
  const opened = useRef(false);
  useEffect(() => {
    if (!tb || opened.current) return;
    opened.current = true;
    if (range) setMarks(marksOfRange(range, tb.rate));
  }, [tb, range]);

  // A modal keeps the keyboard: focus starts on it, and whenever it would leave (a button that
  // disables itself while it works, an element that re-renders away, a click on the page
  // behind), it comes back, so J/K/L, the marks and Esc keep working after every action. The
  // element that had focus before the viewer opened gets it back when it closes.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = dialog.current;
    el?.focus();
    const reclaim = () => {
      const d = dialog.current;
      if (d && !d.contains(document.activeElement)) d.focus({ preventScroll: true });
    };
    const onFocusIn = (e: FocusEvent) => {
      if (dialog.current && e.target instanceof Node && !dialog.current.contains(e.target)) reclaim();
    };
    // Focus lost to nowhere (the focused element went away or was disabled): it lands on <body>.
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget === null) requestAnimationFrame(reclaim);
    };
    document.addEventListener('focusin', onFocusIn);
    el?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      el?.removeEventListener('focusout', onFocusOut);
      before?.focus({ preventScroll: true });
    };
  }, []);

  const frame = tb ? secondsToFrame(now, tb.rate) : 0;
  const currentShot = clip?.shots.find((s) => now >= s.startS - 1e-6 && now < s.endS) ?? clip?.shots.at(-1) ?? null;
  const span = spans.find((s) => now >= s.startS - 1e-6 && now < s.endS) ?? null;

  const shotId = currentShot?.id ?? null;
  useEffect(() => {
    setFaces([]);
    if (shotId === null) return;
    let live = true;
    api
      .call('search.faces', { shotId })
      .then((r) => live && setFaces(r.frames))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [shotId]);

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
      if (!v || !tb) return;
      const length = clip ? clipFrameCount(clip, tb.rate) : null;
      const last = length !== null ? length - 1 : Number.POSITIVE_INFINITY;
      const t = frameToSeconds(Math.max(0, Math.min(last, k)) + 0.5, tb.rate);
      setNow(t);
      wanted.current = t;
      resends.current = 0;
      if (!v.seeking) v.currentTime = t;
    },
    [tb, clip, setNow],
  );

  const applyShuttle = useCallback(
    (e: ShuttleEvent) => {
      const v = video.current;
      const { state, step } = nextShuttle(shuttle.current, e);
      shuttle.current = state;
      setSpeed(state.speed);
      if (!v || !tb) return;
      if (step) {
        v.pause();
        seekFrame(secondsToFrame(nowRef.current, tb.rate) + step);
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
              if (err.name !== 'AbortError') setError(`Playback did not start: ${err.message}`);
              shuttle.current = { ...shuttle.current, speed: 0 };
              setSpeed(0);
            });
          };
          if (v.seeking) v.addEventListener('seeked', start, { once: true });
          else start();
        }
      } else v.pause();
    },
    [tb, seekFrame],
  );

  // Backwards shuttle: browsers do not play in reverse, so the playhead is moved per animation frame.
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
  }, [speed, applyShuttle, setNow]);

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
      v.currentTime = range.startS + (tb ? frameToSeconds(0.5, tb.rate) : 0);
      setNow(v.currentTime);
    };
    v.addEventListener('timeupdate', onTime);
    v.addEventListener('seeked', onSeeked);
    v.addEventListener('ended', onEnded);
    v.addEventListener('pause', onPause);
    v.addEventListener('loadedmetadata', onMeta);
    if (v.readyState >= 1 && !opened.current) onMeta();
    return () => {
      v.removeEventListener('timeupdate', onTime);
      v.removeEventListener('seeked', onSeeked);
      v.removeEventListener('ended', onEnded);
      v.removeEventListener('pause', onPause);
      v.removeEventListener('loadedmetadata', onMeta);
    };
  }, [applyShuttle, range, tb, setNow]);

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
  }, [speed, setNow]);

  const shotJump = (dir: -1 | 1) => {
    if (!clip || !tb) return;
    const frame = secondsToFrame(nowRef.current, tb.rate);
    const starts = clip.shots.map((s) => shotFrames(s, tb.rate, clip.vfr === true).inFrame);
    const target = dir > 0 ? starts.find((f) => f > frame) : [...starts].reverse().find((f) => f < frame);
    if (target !== undefined) seekFrame(target);
  };

  const run = (a: ViewerAction) => {
    const frame = tb ? secondsToFrame(nowRef.current, tb.rate) : 0;
    switch (a.type) {
      case 'close':
        onClose();
        return;
      case 'shuttle':
        applyShuttle(a.event);
        return;
      case 'step':
        applyShuttle({ type: 'stop' });
        seekFrame(frame + a.frames);
        return;
      case 'shot':
        shotJump(a.dir);
        return;
      case 'markIn':
        setMarks((m) => markIn(m, frame));
        return;
      case 'markOut':
        setMarks((m) => markOut(m, frame));
        return;
      case 'goToIn':
        if (inFrame !== null) seekFrame(inFrame);
        return;
      case 'goToOut':
        if (outFrame !== null) seekFrame(outFrame - 1);
        return;
      case 'mute':
        setMuted((m) => !m);
        return;
      case 'overlay':
        setOverlay(toggleOverlay(overlay));
        return;
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Tab') {
      // Focus stays inside the viewer: Tab wraps from the last control to the first.
      const items = [...(dialog.current?.querySelectorAll<HTMLElement>(TABBABLE) ?? [])].filter((el) => el.offsetParent !== null || el === document.activeElement);
      const next = trapTab(items.length, items.indexOf(document.activeElement as HTMLElement), e.shiftKey);
      e.preventDefault();
      if (next !== null) items[next]!.focus();
      return;
    }
    const action = viewerKeyDown({ key: e.key, shiftKey: e.shiftKey, metaKey: e.metaKey, ctrlKey: e.ctrlKey, altKey: e.altKey, repeat: e.repeat, typing: isTyping(e.target) });
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    run(action);
  };
  const onKeyUp = (e: React.KeyboardEvent) => {
    const action = viewerKeyUp(e);
    if (action) run(action);
  };

  const tc = (f: number | null) => (f === null || !tb ? '--:--:--:--' : framesToTimecode(tb.startFrame + f, tb.rate, tb.dropFrame));
  const durTc = (frames: number) => (tb ? framesToTimecode(frames, tb.rate, tb.dropFrame) : '');
  // The duration shown: In (or the start) to Out (or the clip's last frame).
  const durFrom = inFrame ?? 0;
  const durTo = outFrame ?? (clip && tb ? clipFrameCount(clip, tb.rate) : null);
  const spanLabel = span ? `${span.segmentId === null ? 'shot (local tags)' : 'segment'} ${tc(secondsToFrame(span.startS, tb?.rate ?? { num: 25, den: 1 }))}` : 'no shot here';

  return (
    <div className="sv-modal" role="presentation" onClick={onClose}>
      <div
        className="viewer card"
        role="dialog"
        aria-modal="true"
        aria-label={`Viewer: ${clip?.name ?? ''}`}
        data-testid="viewer"
        tabIndex={-1}
        ref={dialog}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onClick={(e) => e.stopPropagation()}
      >
        <div className="row viewer-head">
          <strong className="viewer-name" title={clip?.path}>
            {clip?.name ?? '…'}
          </strong>
          {tb && <span className="muted">{rateLabel(tb.rate)} fps{tb.dropFrame ? ' DF' : ''}{clip?.vfr ? ' (VFR, conformed)' : ''}</span>}
          <span className="spacer" />
          <span className="viewer-tc" data-testid="viewer-tc" data-frame={frame} aria-label="Timecode">
            {tc(frame)}
          </span>
          <button type="button" className="btn" onClick={onClose} data-action="close-player" aria-label="Close viewer (Esc)">
            ✕
          </button>
        </div>
        <div className="viewer-stage-row">
          <div className="sv-stage viewer-stage">
            <video
              ref={video}
              src={api.mediaUrl({ kind: 'clip', clipId })}
              crossOrigin="anonymous"
              muted={muted}
              playsInline
              preload="auto"
              onClick={() => applyShuttle({ type: 'space' })}
              onError={() => setError(`This clip cannot be played here (${clip?.status === 'done' ? 'its format is not supported by the player' : (clip?.statusReason ?? clip?.status ?? 'unknown')}).`)}
              data-testid="viewer-video"
            />
            <FaceBoxes frames={faces} now={now} video={video.current} />
            {overlay.visible && <TagOverlay tags={span?.tags ?? []} spanLabel={spanLabel} position={overlay.position} />}
            {speed !== 0 && speed !== 1 && <div className="viewer-speed">{speed > 0 ? `▶ ${speed}×` : `◀ ${-speed}×`}</div>}
          </div>
          <LevelMeter video={video.current} hasAudio={!!clip?.audioCodec} muted={muted} />
        </div>
        {clip && tb && (
          <ViewerTimeline clip={clip} spans={spans} now={now} rate={tb.rate} inFrame={inFrame} outFrame={outFrame} onSeek={(s) => seekFrame(secondsToFrame(s, tb.rate))} />
        )}
        {error && <div className="error-text sv-small">{error}</div>}
        <div className="row viewer-transport">
          <button type="button" className="btn" title="Previous shot (↑)" onClick={() => shotJump(-1)} aria-label="Previous shot">▲ shot</button>
          <button type="button" className="btn" title="Back one frame (←)" onClick={() => seekFrame(frame - 1)} aria-label="Back one frame">◁|</button>
          <button type="button" className="btn" title="Play backwards, again for faster (J)" onClick={() => applyShuttle({ type: 'J' })} aria-label="Play backwards">◀◀</button>
          <button type="button" className="btn" title="Play / pause (Space)" onClick={() => applyShuttle({ type: 'space' })} aria-label={speed === 0 ? 'Play' : 'Pause'} data-action="play">
            {speed === 0 ? '▶' : '❚❚'}
          </button>
          <button type="button" className="btn" title="Play forward, again for faster (L)" onClick={() => applyShuttle({ type: 'L' })} aria-label="Play faster">▶▶</button>
          <button type="button" className="btn" title="Forward one frame (→)" onClick={() => seekFrame(frame + 1)} aria-label="Forward one frame">|▷</button>
          <button type="button" className="btn" title="Next shot (↓)" onClick={() => shotJump(1)} aria-label="Next shot">▼ shot</button>
          <button type="button" className="btn" onClick={() => setMuted((m) => !m)} aria-pressed={muted} title="Sound on/off (M)" data-action="mute">
            {muted ? '♪ off' : '♪ on'}
          </button>
          <span className="viewer-marks">
            <button type="button" className="btn" onClick={() => run({ type: 'markIn' })} title="Mark In (I); Shift+I goes to it" data-action="mark-in">
              In
            </button>
            <span data-testid="mark-in" className="mono">{tc(inFrame)}</span>
            <button type="button" className="btn" onClick={() => run({ type: 'markOut' })} title="Mark Out (O), the range's last frame; Shift+O goes to it" data-action="mark-out">
              Out
            </button>
            <span data-testid="mark-out" className="mono" title="The range's last frame (inclusive)">{tc(outFrame === null ? null : outFrame - 1)}</span>
            <span className="muted mono" data-testid="mark-duration" title="Duration In to Out">
              {durTo !== null && durTo > durFrom ? `dur ${durTc(durTo - durFrom)}` : ''}
            </span>
          </span>
          <span className="spacer" />
          <span className="viewer-overlay-setting row">
            <button type="button" className="btn" onClick={() => run({ type: 'overlay' })} aria-pressed={overlay.visible} title="Show or hide the tags over the picture (T)" data-action="overlay">
              Tags {overlay.visible ? 'on' : 'off'}
            </button>
            <select
              aria-label="Where the tags show over the picture"
              value={overlay.position}
              onChange={(e) => setOverlay(moveOverlay(overlay, e.target.value as OverlayPosition))}
              data-testid="overlay-position"
            >
              {OVERLAY_POSITIONS.map((p) => (
                <option key={p} value={p}>
                  {OVERLAY_POSITION_LABEL[p]}
                </option>
              ))}
            </select>
          </span>
          <span className="muted sv-small viewer-keys">J K L · ←→ frame · ↑↓ shot · I O · T tags · Space · Esc</span>
        </div>
        {clip && tb && (
          <MarksPanel clip={clip} rate={tb.rate} inFrame={inFrame} outFrame={outFrame} onLoadRange={(i, o) => { setMarks({ inFrame: i, outFrame: o }); seekFrame(i); }} tc={tc} extra={extra} />
        )}
      </div>
    </div>
  );
}
