import type { ReactNode } from 'react';
import type { CollectionVideo } from '../../../../src-shared/contract/collections';
import { OPEN, reasonOf, STATE_LABEL, stateTone } from './format';
import { ProgressBar } from './ProgressBar';

export function VideoTable({
  videos,
  onCancel,
  onRetry,
  onRemove,
  onOpen,
}: {
  videos: CollectionVideo[];
  onCancel: (clipId: number) => void;
  onRetry: (clipId: number) => void;
  onRemove: (clipId: number) => void;
  onOpen: (clipId: number) => void;
}): ReactNode {
  if (videos.length === 0) return <div className="empty col-empty">No clips in this collection yet.</div>;
  return (
    <table className="col-videos" aria-label="Clips in the collection">
      <thead>
        <tr>
          <th>Clip</th>
          <th>State</th>
          <th className="col-progress-cell">Progress</th>
          <th>Sent as</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {videos.map((v) => {
          const open = OPEN.includes(v.status);
          const reason = reasonOf(v);
          const value = v.status === 'processed' ? 1 : open ? v.progress : null;
          return (
            <tr key={v.clipId} data-clip={v.clipId} data-status={v.status}>
              <td>
                <button type="button" className="col-clip-name btn link" onClick={() => onOpen(v.clipId)} title="Open in the viewer">
                  {v.fileName}
                </button>
                {v.videoId && <div className="muted col-small col-mono">{v.videoId}</div>}
                {reason && <div className={`col-small ${v.status === 'failed' ? 'error-text' : 'col-warn'}`}>{reason}</div>}
              </td>
              <td>
                <span className={`badge ${stateTone(v.status) === 'accent' ? 'warn' : stateTone(v.status)}`}>{STATE_LABEL[v.status]}</span>
              </td>
              <td className="col-progress-cell">
                {open || v.status === 'processed' ? (
                  <div className="col-progress-line">
                    <ProgressBar value={v.status === 'queued' ? 0 : value} tone={stateTone(v.status)} label={`${v.fileName} ${STATE_LABEL[v.status]}`} />
                    <span className="muted col-small">{value === null ? '' : `${Math.round(value * 100)}%`}</span>
                  </div>
                ) : null}
              </td>
              <td className="muted col-small">{v.source ?? '—'}</td>
              <td className="col-actions">
                {open ? (
                  <button className="btn col-small" onClick={() => onCancel(v.clipId)}>
                    Cancel
                  </button>
                ) : v.status === 'failed' || v.status === 'cancelled' ? (
                  <button className="btn col-small" onClick={() => onRetry(v.clipId)}>
                    Retry
                  </button>
                ) : null}
                <button className="btn col-small" onClick={() => onRemove(v.clipId)} title="Take the clip out of this collection (the service keeps its video)">
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
