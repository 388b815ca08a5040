import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { SearchResult, SegmentTag } from '../../../../src-shared/contract/search';
import { api } from '../../api/client';
import { clock, FIELD_LABEL, timeRange } from './format';

function TagOverlay({ tags }: { tags: SegmentTag[] }): ReactNode {
  if (tags.length === 0) return null;
  return (
    <div className="sv-overlay" data-testid="player-tags">
      {tags.map((t) => (
        <div key={t.field} className="sv-overlay-row">
          <span className="sv-overlay-field">{FIELD_LABEL[t.field]}</span>
          <span className={`sv-tag sv-tag-${t.source}`} data-tag-source={t.source}>
            {t.value}
            <span className="sv-tag-src">
              {t.source === 'both' ? 'service + local' : t.source}
              {t.confidence !== null ? ` ${Math.round(t.confidence * 100)}%` : ''}
            </span>
          </span>
          {t.other && <span className="sv-tag-other muted" title={`${t.other.source} said ${t.other.value}`}>({t.other.source}: {t.other.value})</span>}
        </div>
      ))}
    </div>
  );
}

type FaceFrames = { timeS: number; faces: { x: number; y: number; w: number; h: number; score: number }[] }[];

/**
 * The faces the local analysis found, drawn over the picture for the sampled frame nearest the
 * playhead (within a second). Boxes are fractions of the picture; the video is letterboxed in its
 * element, so they are placed in the displayed picture's own rectangle.
 */
function FaceBoxes({ frames, now, video }: { frames: FaceFrames; now: number; video: HTMLVideoElement | null }): ReactNode {
  if (!video || frames.length === 0 || !video.videoWidth) return null;
  let best: FaceFrames[number] | null = null;
  for (const f of frames) if (Math.abs(f.timeS - now) <= 1 && (!best || Math.abs(f.timeS - now) < Math.abs(best.timeS - now))) best = f;
  if (!best || best.faces.length === 0) return null;
  const ew = video.clientWidth;
  const eh = video.clientHeight;
  const scale = Math.min(ew / video.videoWidth, eh / video.videoHeight);
  const pw = video.videoWidth * scale;
  const ph = video.videoHeight * scale;
  const left = video.offsetLeft + (ew - pw) / 2;
  const top = video.offsetTop + (eh - ph) / 2;
  return (
    <>
      {best.faces.map((f, i) => (
        <div
          key={i}
          className="sv-face"
          data-testid="face-box"
          style={{ left: left + f.x * pw, top: top + f.y * ph, width: f.w * pw, height: f.h * ph }}
          title={`face ${Math.round(f.score * 100)}%`}
        />
      ))}
    </>
  );
}

/**
 * Plays the clip from the start of the segment and stops (or loops) at its end. The clip is
 * streamed with Range requests, so seeking into a long file does not download it whole.
 */
export function SegmentPlayer({ result, onClose, onSimilar }: { result: SearchResult; onClose: () => void; onSimilar: (r: SearchResult) => void }): ReactNode {
  const video = useRef<HTMLVideoElement>(null);
  const [loop, setLoop] = useState(true);
  const [now, setNow] = useState(result.startS);
  const [error, setError] = useState<string | null>(null);
  const [faces, setFaces] = useState<FaceFrames>([]);
  useEffect(() => {
    setFaces([]);
    if (result.shotId === null) return;
    let live = true;
    api
      .call('search.faces', { shotId: result.shotId })
      .then((r) => live && setFaces(r.frames))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [result.shotId]);
  const loopRef = useRef(loop);
  loopRef.current = loop;
  const start = result.startS;
  const end = result.endS > result.startS ? result.endS : Number.POSITIVE_INFINITY;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const seekToStart = () => {
      v.currentTime = start;
    };
    const onTime = () => {
      setNow(v.currentTime);
      if (v.currentTime >= end - 0.03) {
        if (loopRef.current) v.currentTime = start;
        else v.pause();
      }
    };
    if (v.readyState >= 1) seekToStart();
    v.addEventListener('loadedmetadata', seekToStart);
    v.addEventListener('timeupdate', onTime);
    return () => {
      v.removeEventListener('loadedmetadata', seekToStart);
      v.removeEventListener('timeupdate', onTime);
    };
  }, [start, end, result.clipId]);

  const playSegment = () => {
    const v = video.current;
    if (!v) return;
    v.currentTime = start;
    void v.play().catch(() => undefined);
  };

  const duration = result.clipDurationS ?? 0;
  return (
    <div className="sv-modal" role="dialog" aria-modal="true" aria-label={`${result.clipName} at ${timeRange(result.startS, result.endS)}`} onClick={onClose}>
      <div className="sv-player card" data-testid="search-player" onClick={(e) => e.stopPropagation()}>
        <div className="row sv-player-head">
          <strong className="sv-name">{result.clipName}</strong>
          <span className="muted">{result.segmentId === null ? 'whole clip (found by the collection search)' : timeRange(result.startS, result.endS)}</span>
          <span className="sv-grow" />
          <button type="button" className="btn" onClick={onClose} data-action="close-player" aria-label="Close">
            ✕
          </button>
        </div>
        <div className="sv-stage">
          <video
            ref={video}
            src={api.mediaUrl({ kind: 'clip', clipId: result.clipId })}
            controls
            autoPlay
            muted
            playsInline
            preload="auto"
            data-start={result.startS}
            data-end={result.endS}
            onError={() => setError(`This clip cannot be played here (${result.clipStatus === 'ready' ? 'format not supported by the player' : result.clipStatus}).`)}
          />
          <FaceBoxes frames={faces} now={now} video={video.current} />
          <TagOverlay tags={result.tags} />
        </div>
        {duration > 0 && (
          <div className="sv-timeline" aria-hidden>
            <div className="sv-timeline-seg" style={{ left: `${(result.startS / duration) * 100}%`, width: `${(Math.max(0, Math.min(result.endS, duration) - result.startS) / duration) * 100}%` }} />
            <div className="sv-timeline-now" style={{ left: `${(Math.min(now, duration) / duration) * 100}%` }} />
          </div>
        )}
        {error && <div className="error-text sv-small">{error}</div>}
        <div className="row sv-player-foot">
          <button type="button" className="btn" onClick={playSegment} data-action="play-segment">
            ▶ Play segment
          </button>
          <label className="sv-check">
            <input type="checkbox" checked={loop} onChange={(e) => setLoop(e.target.checked)} data-action="loop" /> loop
          </label>
          <span className="muted sv-small" data-testid="player-time">
            {clock(now)}
          </span>
          <span className="sv-grow" />
          {result.segmentId !== null && (
            <button type="button" className="btn" onClick={() => onSimilar(result)} data-action="player-similar">
              Find similar
            </button>
          )}
          <span className="muted sv-small" title={result.clipPath}>
            {result.clipPath}
          </span>
        </div>
      </div>
    </div>
  );
}
