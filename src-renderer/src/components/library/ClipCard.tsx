import { useState, type ReactNode } from 'react';
import type { ClipSummary } from '../../../../src-shared/contract/library';
import { api } from '../../api/client';
import { clipLengthTc } from '../timecode-format';
import { clipBadge, formatFps, formatResolution, reasonLine, statusTone } from './format';
import { cardSourceTag, type CardSource } from './use-card-sources';

/** Largest box of aspect w:h that fits in boxW x boxH. */
function fit(w: number, h: number, boxW: number, boxH: number): { width: number; height: number } {
  const s = Math.min(boxW / w, boxH / h);
  return { width: Math.round(w * s), height: Math.round(h * s) };
}

/**
 * A clip in the grid. Moving the mouse across the picture scrubs through the filmstrip sprite:
 * the tile under the pointer is shown by shifting the sprite with background-position.
 */
export function ClipCard({ clip, source, people, thumbWidth, thumbHeight, selected, focused, onClick, onOpen, onDragStart }: {
  clip: ClipSummary;
  /** What plays in the viewer (a proxy, nothing yet); nothing said for an original that plays. */
  source?: CardSource;
  /** The named people seen in it (the People view names them). */
  people?: readonly string[];
  thumbWidth: number;
  thumbHeight: number;
  selected: boolean;
  focused: boolean;
  onClick: (e: React.MouseEvent) => void;
  onOpen: () => void;
  onDragStart: (e: React.DragEvent) => void;
}): ReactNode {
  const [scrub, setScrub] = useState<number | null>(null);
  const strip = clip.filmstrip;
  const tone = statusTone(clip.status);
  const badge = clipBadge(clip);
  const sourceTag = cardSourceTag(source);
  const reason = reasonLine(clip);
  const named = people ?? [];
  const tileW = strip?.width ?? clip.poster?.width ?? 16;
  const tileH = strip?.height ?? clip.poster?.height ?? 9;
  const box = fit(tileW, tileH, thumbWidth, thumbHeight);

  const onMove = (e: React.MouseEvent<HTMLDivElement>) => {
    if (!strip || strip.frames < 2) return;
    const r = e.currentTarget.getBoundingClientRect();
    const frac = Math.min(0.9999, Math.max(0, (e.clientX - r.left) / r.width));
    setScrub(Math.floor(frac * strip.frames));
  };

  return (
    <article
      className={`clip-card${selected ? ' selected' : ''}${focused ? ' focused' : ''}`}
      data-clip-id={clip.id}
      data-status={clip.status}
      data-selected={selected}
      aria-selected={selected}
      role="option"
      // The name first: the badge over the picture would otherwise lead what a screen reader says.
      aria-label={`${clip.name}, ${badge.label}${named.length ? `, with ${named.join(', ')}` : ''}`}
      onClick={onClick}
      onDoubleClick={onOpen}
      draggable
      onDragStart={onDragStart}
      title={clip.path}
    >
      <div
        className="clip-thumb"
        style={{ height: thumbHeight }}
        onMouseMove={onMove}
        onMouseLeave={() => setScrub(null)}
        data-testid="clip-thumb"
      >
        {clip.poster ? (
          <img src={api.mediaUrl({ kind: 'thumb', path: clip.poster.path })} alt="" loading="lazy" draggable={false} style={box} />
        ) : (
          <div className={`clip-placeholder tone-${tone}`}>{clip.status === 'pending' || clip.status === 'probed' ? '…' : '⚠'}</div>
        )}
        {/* Laid over the poster, never in its place, and transparent to the pointer: swapping the node
            under the pointer between mousedown and mouseup made Chromium drop the click on the card. */}
        {scrub !== null && strip && (
          <div
            className="clip-sprite"
            data-scrub={scrub}
            style={{
              ...box,
              backgroundImage: `url("${api.mediaUrl({ kind: 'thumb', path: strip.path })}")`,
              backgroundSize: `${strip.frames * 100}% 100%`,
              backgroundPosition: `${(scrub / (strip.frames - 1)) * 100}% 0`,
            }}
          />
        )}
        {scrub !== null && strip && <div className="clip-scrub-bar" style={{ left: `${((scrub + 0.5) / strip.frames) * 100}%` }} />}
        {clip.durationS !== null && <span className="clip-duration" title="Duration to the last video frame">{clipLengthTc(clip)}</span>}
        {clip.rating && (
          <span className={`clip-rating ${clip.rating}`} data-testid="clip-rating" title={clip.rating === 'favorite' ? 'Favourite' : 'Rejected'}>
            {clip.rating === 'favorite' ? '★' : '⊘'}
          </span>
        )}
        {/* Over the picture, not in the meta line: a narrow card kept the badge whole there and cut the
            frame rate and codec to "29.97…" and "h…", which an editor needs to read. */}
        <div className="clip-corner">
          {clip.sourceUrl && <span className="clip-remote" title={`Lives at ${clip.sourceUrl}`}>URL</span>}
          {sourceTag && (
            <span className={`clip-source clip-source-${sourceTag.tone}`} title={sourceTag.title} data-testid="clip-source">
              {sourceTag.label}
            </span>
          )}
          <span className={`badge ${badge.tone}`} title={reason ?? badge.title} data-testid="clip-status" data-indexing={clip.indexing ?? undefined}>
            {badge.label}
          </span>
        </div>
        {clip.shotCount > 1 && <span className="clip-shots">{clip.shotCount} shots</span>}
      </div>
      <div className="clip-info">
        <div className="clip-name" title={clip.name}>
          {clip.name}
        </div>
        <div className="clip-meta">
          <span>{formatResolution(clip)}</span>
          {clip.fps ? <span>{formatFps(clip)}</span> : null}
          {clip.videoCodec ? <span>{clip.videoCodec}</span> : null}
        </div>
        {(clip.keywords.length > 0 || clip.rangeCount > 0 || named.length > 0) && (
          <div className="clip-marks-line muted">
            {/* Who is in it first: an editor looks for people before ranges and keywords. */}
            {named.length > 0 && (
              <span className="clip-people" data-testid="clip-people" title={`People: ${named.join(', ')}`}>
                ☺ {named.join(', ')}
              </span>
            )}
            {clip.rangeCount > 0 && <span>{clip.rangeCount} range{clip.rangeCount === 1 ? '' : 's'}</span>}
            {clip.keywords.map((k) => (
              <span key={k} className="keyword-chip small">
                {k}
              </span>
            ))}
          </div>
        )}
        {reason && (
          <div className={`clip-reason tone-${tone}`} title={reason}>
            {reason}
          </div>
        )}
      </div>
    </article>
  );
}
