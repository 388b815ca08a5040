import { useEffect, useState, type ReactNode } from 'react';
import type { Range } from '../../../../src-shared/contract/marks';
import { api } from '../../api/client';
import { ExportMenu } from '../ExportMenu';
import { tcFrame, tcLength } from '../timecode-format';
import { rangeOfFrames } from '../viewer/marks';

/** A clip's saved ranges in its detail panel: each opens the viewer at its In and Out; all export together. */
export function ClipRanges({ clipId, clipName, timecode, onOpen }: { clipId: number; clipName: string; timecode: string | null; onOpen: (range: { startS: number; endS: number }) => void }): ReactNode {
  const [ranges, setRanges] = useState<Range[]>([]);
  useEffect(() => {
    let live = true;
    const load = () => api.call('marks.forClip', { clipId }).then((m) => live && setRanges(m.ranges)).catch(() => undefined);
    void load();
    const off = api.on('catalog.changed', (p) => {
      if (p.reason === 'marks' && (!p.clipIds || p.clipIds.includes(clipId))) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [clipId]);
  if (ranges.length === 0) return null;
  return (
    <>
      <div className="row">
        <h3>
          {ranges.length} range{ranges.length === 1 ? '' : 's'}
        </h3>
        <span className="spacer" />
        <ExportMenu selection={{ rangeIds: ranges.map((r) => r.id) }} title={`${clipName.replace(/\.[^.]+$/, '')} ranges`} label="Export ranges" />
      </div>
      <ul className="clip-ranges" data-testid="clip-ranges">
        {ranges.map((r) => {
          const clock = { rate: r.rate, timecode };
          return (
            <li key={r.id}>
              <button type="button" className="btn link" onClick={() => onOpen(rangeOfFrames(r, r.rate))} data-action="open-range" title="Open this range in the viewer">
                {r.name}
              </button>{' '}
              <span className="mono">{tcFrame(clock, r.inFrame)}</span> · {tcLength(clock, r.outFrame - r.inFrame)}
              {r.note && <span className="muted"> · {r.note}</span>}
            </li>
          );
        })}
      </ul>
    </>
  );
}
