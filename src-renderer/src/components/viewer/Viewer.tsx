import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { clipFrameCount, framesToTimecode, nominalFps, rateLabel, secondsToFrame, shotFrames } from '../../../../src-shared/timecode';
import { isReducedStream, streamWindowFor, type StreamWindow } from '../../../../src-shared/stream-window';
import { api } from '../../api/client';
import { timebaseOf } from '../timecode-format';
import { FaceBoxes } from './FaceBoxes';
import { useClipFaceNames } from '../people/use-clip-face-names';
import { LevelMeter } from './LevelMeter';
import { viewerKeyDown, viewerKeyUp, type ViewerAction } from './keys';
import { clearIn, clearOut, markedFrames, markIn, marksOfRange, markOut, NO_MARKS, shotJumpTarget, type Marks } from './marks';
import { MarksPanel } from './MarksPanel';
import { loadOverlay, moveOverlay, saveOverlay, toggleOverlay, type OverlaySettings } from './overlay';
import { SourceBadge, sourceUrl } from './SourceBadge';
import { TagOverlay } from './TagOverlay';
import { ViewerKeysHelp } from './ViewerKeysHelp';
import { tabWithin, useModalFocus } from './useModalFocus';
import { useClipView, usePictureTimes, useShotFaces } from './useClipView';
import { usePlayback } from './usePlayback';
import { RelinkCopy } from './RelinkCopy';
import { ViewerTimeline } from './ViewerTimeline';
import { ViewerTransport } from './ViewerTransport';
import './viewer.css';

export interface ViewerProps {
  clipId: number;
  /** Open at this range (a search result, a shot): playhead at its start, In/Out around it. */
  range?: { startS: number; endS: number } | null;
  onClose: () => void;
  /** Actions of the view that opened it (Find similar in Search). */
  extra?: ReactNode;
}

const isTyping = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);

/**
 * The one viewer (Library cards and shots, search results, collections): plays the clip with its
 * sound, J/K/L shuttle, frame steps, In/Out marks, shot jumps, source timecode, the shot strip and
 * indexed segments under the picture, and the tags of the span being shown over it. Its parts:
 * the keys, marks, shuttle and overlay as pure functions (keys.ts, marks.ts, shuttle.ts,
 * overlay.ts), the <video> driving (usePlayback), the data (useClipView), the keyboard trap
 * (useModalFocus); this file puts them together and draws the view.
 */
export function Viewer({ clipId, range, onClose, extra }: ViewerProps): ReactNode {
  const video = useRef<HTMLVideoElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const { clip, spans, playback, reloadPlayback } = useClipView(clipId, setError);
  // A preview stream plays one window of the clip at a time: the one under the playhead (set below).
  const [streamWindow, setStreamWindow] = useState<StreamWindow | null>(null);
  const src = playback ? sourceUrl(clipId, playback, streamWindow) : null;
  const [muted, setMuted] = useState(false);
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // The player has no picture to show yet for where it stands (a preview window being made, a slow
  // share): said over the picture, so a black frame never reads as the clip's picture.
  const [loading, setLoading] = useState(false);
  const tb = useMemo(() => (clip ? timebaseOf(clip) : null), [clip]);
  const [marks, setMarks] = useState<Marks>(NO_MARKS);
  const { inFrame, outFrame } = marks;
  const [overlay, setOverlayState] = useState<OverlaySettings>(() => loadOverlay(localStorage));
  const setOverlay = (next: OverlaySettings) => {
    setOverlayState(next);
    saveOverlay(localStorage, next);
  };

  // A range to open at becomes In/Out once the rate is known.
  const rangeApplied = useRef(false);
  useEffect(() => {
    if (!tb || rangeApplied.current) return;
    rangeApplied.current = true;
    if (range) setMarks(marksOfRange(range, tb.rate, clip?.conformed === true));
  }, [tb, range, clip]);

  const streaming = playback?.source === 'stream';
  const clipFrames = clip && tb ? clipFrameCount(clip, tb.rate) : null;
  // Play runs on from a window's end into the next (none after the clip's last window).
  const continueAt = streaming && streamWindow && clipFrames !== null && streamWindow.to < clipFrames ? streamWindow.to : null;
  // A conformed clip is driven once its presentation times are known (or known to be unreadable).
  const pictureTimes = usePictureTimes(clipId, clip ? clip.conformed === true : undefined);
  const rate = tb && pictureTimes !== undefined ? tb.rate : null;
  const { now, nowRef, speed, seekFrame, applyShuttle } = usePlayback({
    video,
    src,
    clip,
    rate,
    pictureTimes: pictureTimes ?? null,
    range,
    openAt: range && tb ? marksOfRange(range, tb.rate, clip?.conformed === true).inFrame : null,
    onError: setError,
    continueAt,
    reverseFloor: streaming && streamWindow && streamWindow.from > 0 ? streamWindow.from : null,
  });
  useModalFocus(dialog);

  const frame = tb ? secondsToFrame(now, tb.rate) : 0;
  // The playhead left the window (played on, stepped, sought): the window holding it is asked for,
  // the next (longer) one when play ran on or back into it, else a short head at the playhead.
  const direction = Math.sign(speed);
  useEffect(() => {
    if (!streaming || !tb) return setStreamWindow(null);
    setStreamWindow((w) => streamWindowFor(w, frame, direction, tb.rate, clipFrames));
  }, [streaming, tb, frame, direction, clipFrames]);
  // Main makes ahead the window the playhead goes into next: the one after, or in reverse play the one before.
  useEffect(() => {
    if (!streaming || !streamWindow || direction === 0) return;
    void api.call('playback.streamToward', { clipId, from: streamWindow.from, to: streamWindow.to, toward: direction < 0 ? 'back' : 'on' }).catch(() => undefined);
  }, [clipId, streaming, streamWindow, direction]);
  // A window main made smaller (its transcode did not keep up at full size): the badge says so.
  const [reduced, setReduced] = useState(false);
  const measureStream = () => setReduced(streaming && isReducedStream(video.current?.videoHeight ?? 0, clip?.height ?? null));
  // Main makes the stream while it is watched: closing the viewer, or its proxy arriving, stops it.
  useEffect(() => {
    if (!streaming) return;
    return () => void api.call('playback.stopStream', { clipId }).catch(() => undefined);
  }, [clipId, streaming]);
  const currentShot = clip?.shots.find((s) => now >= s.startS - 1e-6 && now < s.endS) ?? clip?.shots.at(-1) ?? null;
  const span = spans.find((s) => now >= s.startS - 1e-6 && now < s.endS) ?? null;
  const faces = useShotFaces(currentShot?.id ?? null);
  const faceNames = useClipFaceNames(clipId);

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
      case 'stepSecond':
        applyShuttle({ type: 'stop' });
        if (tb) seekFrame(frame + a.dir * nominalFps(tb.rate));
        return;
      case 'goTo':
        applyShuttle({ type: 'stop' });
        // seekFrame clamps to the clip's last frame.
        seekFrame(a.where === 'start' ? 0 : Number.MAX_SAFE_INTEGER);
        return;
      case 'shot': {
        if (!clip || !tb) return;
        const starts = clip.shots.map((s) => shotFrames(s, tb.rate, clip.conformed === true).inFrame);
        const target = shotJumpTarget(starts, frame, a.dir);
        if (target !== null) seekFrame(target);
        return;
      }
      case 'markIn':
        setMarks((m) => markIn(m, frame));
        return;
      case 'markOut':
        setMarks((m) => markOut(m, frame));
        return;
      case 'clearIn':
        setMarks(clearIn);
        return;
      case 'clearOut':
        setMarks(clearOut);
        return;
      case 'clearMarks':
        setMarks(NO_MARKS);
        return;
      case 'markShot': {
        if (!clip || !tb || !currentShot) return;
        const s = shotFrames(currentShot, tb.rate, clip.conformed === true);
        setMarks({ inFrame: s.inFrame, outFrame: s.outFrame });
        return;
      }
      case 'marker':
        if (!clip || !tb) return;
        api
          .call('marks.saveRange', { clipId: clip.id, inFrame: frame, outFrame: frame + 1, rate: tb.rate, name: `Marker ${tc(frame)}`, keywords: ['marker'] })
          .then(() => setNotice(`Marker added at ${tc(frame)}`))
          .catch((e: Error) => setError(`The marker was not saved: ${e.message}`));
        return;
      case 'help':
        setHelp((h) => !h);
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
      e.preventDefault();
      tabWithin(dialog.current, e.shiftKey);
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
  const marked = markedFrames(marks, clip && tb ? clipFrameCount(clip, tb.rate) : null);
  const spanLabel = span ? `${span.segmentId === null ? 'shot (local tags)' : 'segment'} ${tc(secondsToFrame(span.startS, tb?.rate ?? { num: 25, den: 1 }))}` : 'no shot here';

  return (
    <div className="sv-modal viewer-modal" role="presentation" onClick={onClose}>
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
          {playback && <SourceBadge playback={playback} reduced={reduced} />}
          {tb && <span className="muted">{rateLabel(tb.rate)} fps{tb.dropFrame ? ' DF' : ''}{clip?.conformed ? (clip.vfr ? ' (VFR, conformed)' : ` (${Number((clip.fps ?? 0).toFixed(3))} fps source, conformed)`) : ''}</span>}
          <span className="spacer" />
          <span className="viewer-tc" data-testid="viewer-tc" data-frame={frame} aria-label="Timecode">
            {tc(frame)}
          </span>
          <button type="button" className="btn" onClick={() => setHelp((h) => !h)} aria-pressed={help} aria-label="Keyboard shortcuts (?)" title="Keyboard shortcuts (?)" data-action="keys-help">
            ?
          </button>
          <button type="button" className="btn" onClick={onClose} data-action="close-player" aria-label="Close viewer (Esc)">
            ✕
          </button>
        </div>
        <div className="viewer-body">
          <div className="viewer-main">
            <div className="viewer-stage-row">
              <div className="sv-stage viewer-stage">
                <video
                  ref={video}
                  src={src ?? undefined}
                  crossOrigin="anonymous"
                  muted={muted}
                  playsInline
                  preload="auto"
                  onClick={() => applyShuttle({ type: 'space' })}
                  onLoadStart={() => setLoading(true)}
                  onLoadedMetadata={measureStream}
                  onResize={measureStream}
                  onWaiting={() => setLoading(true)}
                  onLoadedData={() => setLoading(false)}
                  onCanPlay={() => setLoading(false)}
                  onPlaying={() => setLoading(false)}
                  onSeeked={() => setLoading(false)}
                  onError={() => {
                setLoading(false);
                // Another source may play (the original gone while playing: its proxy); the same one failing again is said.
                const failed = playback?.source;
                void reloadPlayback().then((p) => {
                  if (p && p.source !== failed) return;
                  setError(`This clip cannot be played here (${p?.why ?? playback?.why ?? (clip?.status === 'done' ? 'its file could not be read by the player' : (clip?.statusReason ?? clip?.status ?? 'unknown'))}).`);
                });
              }}
                  data-testid="viewer-video"
                  data-source={playback?.source ?? ''}
                />
                {loading && playback && playback.source !== 'none' && (
                  <div className="viewer-loading" role="status" data-testid="viewer-loading">
                    {streaming ? 'Making the preview of this part…' : 'Loading the picture…'}
                  </div>
                )}
                {playback?.source === 'none' && (
                  <div className="viewer-unplayable" data-testid="viewer-unplayable">
                    <div>Cannot be played here: {playback.why}</div>
                    {playback.teamShare !== null && <RelinkCopy share={playback.teamShare} onRelinked={() => void reloadPlayback()} />}
                  </div>
                )}
                <FaceBoxes frames={faces} names={faceNames} now={now} video={video.current} />
                {overlay.visible && <TagOverlay tags={span?.tags ?? []} spanLabel={spanLabel} position={overlay.position} />}
                {speed !== 0 && speed !== 1 && <div className="viewer-speed">{speed > 0 ? `▶ ${speed}×` : `◀ ${-speed}×`}</div>}
                {help && <ViewerKeysHelp onClose={() => setHelp(false)} />}
              </div>
              <LevelMeter video={video.current} hasAudio={!!clip?.audioCodec} muted={muted} />
            </div>
            {clip && tb && (
              <ViewerTimeline clip={clip} spans={spans} now={now} rate={tb.rate} inFrame={inFrame} outFrame={outFrame} onSeek={(s) => seekFrame(secondsToFrame(s, tb.rate))} />
            )}
            {error && <div className="error-text sv-small">{error}</div>}
            {notice && <div className="sv-small" role="status" data-testid="viewer-notice">{notice}</div>}
            <ViewerTransport
              speed={speed}
              muted={muted}
              hasAudio={!!clip?.audioCodec}
              overlay={overlay}
              inTc={tc(inFrame)}
              outTc={tc(outFrame === null ? null : outFrame - 1)}
              durationTc={marked !== null && tb ? framesToTimecode(marked, tb.rate, tb.dropFrame) : null}
              run={run}
              onMoveOverlay={(p) => setOverlay(moveOverlay(overlay, p))}
            />
          </div>
          {clip && tb && (
            <aside className="viewer-side">
              <MarksPanel clip={clip} rate={tb.rate} inFrame={inFrame} outFrame={outFrame} onLoadRange={(i, o) => { setMarks({ inFrame: i, outFrame: o }); seekFrame(i); }} tc={tc} extra={extra} />
            </aside>
          )}
        </div>
      </div>
    </div>
  );
}
