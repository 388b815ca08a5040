import { useEffect, useState, type ReactNode } from 'react';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import type { ClipMarks, Range, Rating } from '../../../../src-shared/contract/marks';
import type { AppError } from '../../../../src-shared/errors';
import { frameToSeconds, type FrameRate } from '../../../../src-shared/timecode';
import { api } from '../../api/client';
import { ExportMenu } from '../ExportMenu';
import { dragOutHandler, HandOff, useHandOffCapabilities } from '../HandOff';
import { KeywordEditor, RatingButtons } from '../marks/MarkControls';
import { tcLength } from '../timecode-format';
import { rangeOnGrid } from './marks';
import { TagRangeNow } from './TagRangeNow';

/**
 * Under the viewer: rate and keyword the clip, save In/Out as a named range with a note, the
 * clip's saved ranges (load, rate, keyword, delete), hand-off and export of the range or clip.
 */
export function MarksPanel({ clip, rate, inFrame, outFrame, onLoadRange, tc, extra }: {
  clip: ClipDetail;
  rate: FrameRate;
  inFrame: number | null;
  outFrame: number | null;
  onLoadRange: (inFrame: number, outFrame: number) => void;
  tc: (frame: number | null) => string;
  extra?: ReactNode;
}): ReactNode {
  const [marks, setMarks] = useState<ClipMarks | null>(null);
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [activeRange, setActiveRange] = useState<number | null>(null);
  const caps = useHandOffCapabilities();

  useEffect(() => {
    let live = true;
    const load = () => api.call('marks.forClip', { clipId: clip.id }).then((m) => live && setMarks(m)).catch(() => undefined);
    void load();
    const off = api.on('catalog.changed', (p) => {
      if (p.reason === 'marks' && (!p.clipIds || p.clipIds.includes(clip.id))) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [clip.id]);

  const hasRange = inFrame !== null && outFrame !== null && outFrame > inFrame;
  // A saved range on this clip's grid (it keeps the rate it was saved at): where it loads, and what it spans.
  const onGrid = (r: Range) => rangeOnGrid(r, rate);
  // A saved range stays "the selection" only while the marks are still its In and Out on that grid.
  const isMarked = (g: { inFrame: number; outFrame: number }) => g.inFrame === inFrame && g.outFrame === outFrame;
  const selected = marks?.ranges.find((r) => r.id === activeRange && isMarked(onGrid(r))) ?? null;
  const activeRangeId = selected?.id ?? null;
  const baseName = clip.name.replace(/\.[^.]+$/, '');
  const saveRange = async () => {
    if (!hasRange) return;
    try {
      const r = await api.call('marks.saveRange', {
        clipId: clip.id,
        inFrame: inFrame!,
        outFrame: outFrame!,
        rate,
        name: name.trim() || `${baseName} ${tc(inFrame)}`,
        note,
      });
      setActiveRange(r.id);
      setName('');
      setNote('');
      setStatus(`Saved “${r.name}”`);
    } catch (e) {
      setStatus((e as AppError).message);
    }
  };
  const rateClip = (rating: Rating) => void api.call('marks.rate', { clipIds: [clip.id], rating }).catch((e: AppError) => setStatus(e.message));
  // In to its last frame (the Out the viewer shows), and the length counted as the clip counts (";" when drop-frame).
  const rangeSpan = (r: Range) => {
    const g = onGrid(r);
    return `${tc(g.inFrame)} – ${tc(g.outFrame - 1)} · ${tcLength(clip, g.outFrame - g.inFrame)}`;
  };
  // What the export holds, and the name its files get: the saved range, In to Out, or the clip.
  const { selection, exportTitle } =
    selected !== null
      ? { selection: { rangeIds: [selected.id] }, exportTitle: `${baseName} – ${selected.name}` }
      : hasRange
        ? { selection: { spans: [{ clipId: clip.id, inFrame: inFrame!, outFrame: outFrame! }] }, exportTitle: `${baseName} ${tc(inFrame)}–${tc(outFrame! - 1)}` }
        : { selection: { clipIds: [clip.id] }, exportTitle: baseName };

  return (
    <div className="viewer-marks-panel" data-testid="marks-panel">
      <div className="row">
        <span className="muted">Clip</span>
        <RatingButtons rating={marks?.rating ?? null} onRate={rateClip} label="clip" />
        <KeywordEditor keywords={marks?.keywords ?? []} targets={{ clipIds: [clip.id] }} label="clip" />
        <span className="spacer" />
        {extra}
      </div>
      <div className="row viewer-save-range">
        <input
          type="text"
          placeholder={hasRange ? `Range name (${baseName} ${tc(inFrame)})` : 'Range: mark In and Out (I, O)'}
          aria-label="Range name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={!hasRange}
          data-testid="range-name"
        />
        <input type="text" placeholder="Note" aria-label="Range note" value={note} onChange={(e) => setNote(e.target.value)} disabled={!hasRange} className="viewer-note" />
        <button type="button" className="btn primary" onClick={() => void saveRange()} disabled={!hasRange} data-action="save-range">
          Save range
        </button>
        <TagRangeNow clipId={clip.id} startS={hasRange ? frameToSeconds(inFrame!, rate) : null} endS={hasRange ? frameToSeconds(outFrame!, rate) : null} />
        {status && <span className="muted sv-small" role="status">{status}</span>}
      </div>
      {marks && marks.ranges.length > 0 && (
        <ul className="viewer-ranges" aria-label="Saved ranges" data-testid="saved-ranges">
          {marks.ranges.map((r) => (
            <li
              key={r.id}
              className={`viewer-range${activeRangeId === r.id ? ' active' : ''}`}
              data-range-id={r.id}
              draggable={!clip.sourceUrl}
              onDragStart={dragOutHandler([clip.id], caps, setStatus)}
              title={clip.sourceUrl ? undefined : "Drag into your NLE or a folder (the clip's file)"}
            >
              <button
                type="button"
                className="btn link"
                onClick={() => {
                  setActiveRange(r.id);
                  const g = onGrid(r);
                  onLoadRange(g.inFrame, g.outFrame);
                }}
                title={`${r.name}: load its In and Out`}
              >
                {r.name}
              </button>
              <span className="mono muted sv-small">{rangeSpan(r)}</span>
              {r.note && <span className="muted sv-small viewer-range-note">{r.note}</span>}
              {/* The range last loaded or saved carries its rating, keywords and delete (they stay while In and Out move, so the
                  focus never falls out of the viewer); the others fold to name, span and a summary, so a clip's ranges fit beside the picture. */}
              {activeRange === r.id ? (
                <>
                  <RatingButtons rating={r.rating} onRate={(rating) => void api.call('marks.rate', { rangeIds: [r.id], rating })} label={r.name} />
                  <KeywordEditor keywords={r.keywords} targets={{ rangeIds: [r.id] }} label={r.name} />
                  <button type="button" className="btn link" aria-label={`Delete range ${r.name}`} onClick={() => void api.call('marks.deleteRange', { rangeId: r.id })}>
                    Delete
                  </button>
                </>
              ) : (
                <span className="muted sv-small viewer-range-note" data-testid="range-summary">
                  {rangeSummary(r)}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        {/* An NLE needs the file on a drive: exports leave a clip added by URL out, so none is offered. */}
        {!clip.sourceUrl && (
          <>
            <span className="muted" data-testid="export-scope">
              {activeRangeId !== null ? `Range “${selected!.name}”` : hasRange ? 'In to Out' : 'Whole clip'}
            </span>
            <ExportMenu selection={selection} title={exportTitle} />
          </>
        )}
        <span className="spacer" />
        <HandOff clipIds={[clip.id]} path={clip.path} sourceUrl={clip.sourceUrl} />
      </div>
    </div>
  );
}

/** A folded range's rating and keywords in words ("★ favourite · interview, wide"). */
function rangeSummary(r: Pick<Range, 'rating' | 'keywords'>): string {
  const rating = r.rating === 'favorite' ? '★ favourite' : r.rating === 'reject' ? '⊘ rejected' : null;
  return [rating, r.keywords.join(', ')].filter(Boolean).join(' · ');
}
