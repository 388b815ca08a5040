import { useEffect, useState, type ReactNode } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { ExportMenu } from '../ExportMenu';
import { shotFrames } from '../../../../src-shared/timecode';
import { clipLengthTc, tcAt, tcFrame, tcLength, timebaseOf } from '../timecode-format';
import { rangeOfFrames } from '../viewer/marks';
import { ClipRanges } from './ClipRanges';
import { clipBadge, formatFps, formatResolution, formatSize, statusTone } from './format';

/** Metadata and shots of one clip; refreshed when the catalog changes. */
export function ClipDetailPanel({ clipId, onClose, onOpen }: { clipId: number; onClose: () => void; onOpen: (range: { startS: number; endS: number } | null) => void }): ReactNode {
  const [clip, setClip] = useState<ClipDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .call('library.get', { clipId })
        .then((c) => live && (setClip(c), setError(null)))
        .catch((e: AppError) => live && setError(e.message));
    void load();
    const off = api.on('catalog.changed', (p) => {
      if (!p.clipIds || p.clipIds.includes(clipId)) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [clipId]);

  const retry = async () => {
    await api.call('library.retry', { clipIds: [clipId] }).catch((e: AppError) => setError(e.message));
  };

  return (
    <aside className="clip-detail card" aria-label="Clip details" data-testid="clip-detail">
      <div className="row">
        <strong className="clip-detail-name">{clip?.name ?? '…'}</strong>
        <span className="spacer" />
        <button type="button" className="btn link" onClick={onClose} aria-label="Close details">
          ✕
        </button>
      </div>
      {error && <div className="error-text">{error}</div>}
      {clip && (
        <>
          <div className="muted clip-detail-path">{clip.path}</div>
          <div className="row">
            <button type="button" className="btn primary" onClick={() => onOpen(null)} data-action="open-viewer" title="Open in the viewer (Enter or double-click on a card)">
              ▶ Open
            </button>
            <span className={`badge ${clipBadge(clip).tone}`}>{clipBadge(clip).label}</span>
            {/* A clip added by URL has no local stages to run again: adding its address again remakes its poster. */}
            {!clip.sourceUrl && (clip.status === 'error' || clip.status === 'unsupported' || clip.status === 'done') && (
              <button type="button" className="btn" onClick={retry}>
                Process again
              </button>
            )}
          </div>
          {clip.statusReason && <div className={`clip-reason tone-${statusTone(clip.status)}`}>{clip.statusReason}</div>}
          <dl className="meta-list">
            <dt>Duration</dt>
            <dd className="mono" title="To the last video frame">{clipLengthTc(clip)}</dd>
            <dt>Picture</dt>
            <dd>
              {formatResolution(clip)} {formatFps(clip)} {clip.rotation ? `(rotated ${clip.rotation}°)` : ''}
            </dd>
            <dt>Codecs</dt>
            <dd>
              {[clip.container, clip.videoCodec, clip.audioCodec && `${clip.audioCodec}${clip.audioChannels ? ` ${clip.audioChannels} ch` : ''}`]
                .filter(Boolean)
                .join(' · ') || '–'}
            </dd>
            <dt>Timecode</dt>
            <dd className="mono" title={clip.timecode ? 'start timecode of the file' : 'the file carries none: counted from zero'}>
              {clip.rate || clip.fps ? tcAt(clip, 0) : '–'}
              {clip.timecode ? '' : ' (none in file)'}
            </dd>
            <dt>Size</dt>
            <dd title={clip.sourceUrl ? 'streamed from its address; nothing is stored on this computer but its pictures' : undefined}>{formatSize(clip)}</dd>
            <dt>Volume</dt>
            <dd>{clip.volumeLabel}</dd>
          </dl>
          <ClipRanges clipId={clip.id} clipName={clip.name} timecode={clip.timecode} onOpen={onOpen} />
          <div className="row">
            <h3>{clip.shots.length} shot{clip.shots.length === 1 ? '' : 's'}</h3>
            <span className="spacer" />
            {clip.shots.length > 1 && !clip.sourceUrl && <ExportMenu selection={{ shotIds: clip.shots.map((s) => s.id) }} title={`${clip.name.replace(/\.[^.]+$/, '')} shots`} label="Export shots" />}
          </div>
          <div className="shot-list">
            {clip.shots.map((s) => {
              // Shots are frames of the clip: the first frame of a shot is its cut frame, never the one before.
              const rate = timebaseOf(clip).rate;
              const f = shotFrames(s, rate, clip.conformed === true);
              return (
                <figure key={s.id} className="shot" data-in-frame={f.inFrame}>
                  <button type="button" className="shot-open" onClick={() => onOpen(rangeOfFrames(f, rate))} title="Open this shot in the viewer" data-action="open-shot" data-shot={s.idx + 1}>
                    {s.poster ? <img src={api.mediaUrl({ kind: 'thumb', path: s.poster.path })} alt={`shot ${s.idx + 1}`} loading="lazy" /> : <div className="clip-placeholder" />}
                  </button>
                  <figcaption>
                    {s.idx + 1}. <span className="mono" data-testid="shot-in">{tcFrame(clip, f.inFrame)}</span> · {tcLength(clip, f.outFrame - f.inFrame)}
                    {s.transition && s.transition.kind !== 'cut' && (
                      // A gradual transition opens this shot: the boundary is its middle, the span is shown.
                      <span
                        className="shot-transition"
                        data-testid="shot-transition"
                        title={`${s.transition.kind} from ${tcAt(clip, s.transition.startS)} to ${tcAt(clip, s.transition.endS)}; the shot starts at its middle`}
                      >
                        {' '}
                        · {s.transition.kind} {(s.transition.endS - s.transition.startS).toFixed(1)} s
                      </span>
                    )}
                  </figcaption>
                </figure>
              );
            })}
          </div>
        </>
      )}
    </aside>
  );
}
