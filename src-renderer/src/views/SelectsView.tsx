import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Select } from '../../../src-shared/contract/selects';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { ExportMenu } from '../components/ExportMenu';
import { tcFrame, tcLength } from '../components/timecode-format';
import { rangeOfFrames } from '../components/viewer/marks';
import { Viewer } from '../components/viewer/Viewer';
import './library.css';

type SortKey = 'clip' | 'in' | 'duration' | 'name' | 'rating';
// In and Out side by side as in every NLE's bin; Out is the range's last frame, sorted through In.
const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: 'clip', label: 'Clip' },
  { key: 'in', label: 'In' },
  { key: null, label: 'Out' },
  { key: 'duration', label: 'Duration' },
  { key: 'name', label: 'Name' },
  { key: 'rating', label: 'Rating' },
  { key: null, label: 'Note' },
  { key: null, label: 'Keywords' },
];
const RATING_ORDER: Record<Select['rating'] & string, number> = { favorite: 0, reject: 2 };
const ratingRank = (s: Select) => (s.rating ? RATING_ORDER[s.rating] : 1);

const clockOf = (s: Select) => ({ rate: s.rate, timecode: s.clipTimecode });
const durationS = (s: Select) => ((s.outFrame - s.inFrame) * s.rate.den) / s.rate.num;
const compare: Record<SortKey, (a: Select, b: Select) => number> = {
  clip: (a, b) => a.clipName.localeCompare(b.clipName) || a.inFrame - b.inFrame,
  in: (a, b) => a.inFrame * a.rate.den * b.rate.num - b.inFrame * b.rate.den * a.rate.num,
  duration: (a, b) => durationS(a) - durationS(b),
  name: (a, b) => a.name.localeCompare(b.name),
  rating: (a, b) => ratingRank(a) - ratingRank(b) || a.clipName.localeCompare(b.clipName) || a.inFrame - b.inFrame,
};

/**
 * Every saved range of the library in one list: sorted by a column (a second click reverses),
 * filtered by words, selected with the mouse (Shift and Ctrl/Cmd) or the keyboard (arrows, Shift,
 * Ctrl+A), opened in the viewer at the range (Enter, double-click), and exported together as items.
 */
export function SelectsView(): ReactNode {
  const [selects, setSelects] = useState<Select[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; reversed: boolean }>({ key: 'clip', reversed: false });
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [focus, setFocus] = useState<number | null>(null);
  const [anchor, setAnchor] = useState<number | null>(null);
  const [viewer, setViewer] = useState<Select | null>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const load = () =>
      api
        .call('selects.list', {})
        .then((r) => (setSelects(r.selects), setError(null)))
        .catch((e: AppError) => setError(e.message));
    void load();
    return api.on('catalog.changed', (p) => {
      if (p.reason === 'marks') void load();
    });
  }, []);

  const rows = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const shown = words ? selects.filter((s) => [s.clipName, s.name, s.note, ...s.keywords].join(' ').toLowerCase().includes(words)) : [...selects];
    shown.sort((a, b) => (sort.reversed ? -1 : 1) * compare[sort.key](a, b));
    return shown;
  }, [selects, filter, sort]);

  const pick = (i: number, e: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }) => {
    const id = rows[i]!.id;
    if (e.shiftKey && anchor !== null) {
      const [a, b] = [Math.min(anchor, i), Math.max(anchor, i)];
      setSelected(new Set(rows.slice(a, b + 1).map((r) => r.id)));
    } else if (e.ctrlKey || e.metaKey) {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setSelected(next);
      setAnchor(i);
    } else {
      setSelected(new Set([id]));
      setAnchor(i);
    }
    setFocus(i);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.target !== body.current || rows.length === 0) return;
    const move = (to: number) => {
      e.preventDefault();
      const i = Math.max(0, Math.min(rows.length - 1, to));
      pick(i, { shiftKey: e.shiftKey, ctrlKey: false, metaKey: false });
      document.querySelector(`[data-select-row="${i}"]`)?.scrollIntoView({ block: 'nearest' });
    };
    if (e.key === 'ArrowDown') move(focus === null ? 0 : focus + 1);
    else if (e.key === 'ArrowUp') move(focus === null ? 0 : focus - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(rows.length - 1);
    else if (e.key === 'Enter' && focus !== null) {
      e.preventDefault();
      setViewer(rows[focus]!);
    } else if (e.key.toLowerCase() === 'a' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      setSelected(new Set(rows.map((r) => r.id)));
    } else if (e.key === 'Escape') setSelected(new Set());
  };

  const onSort = (key: SortKey) => setSort((s) => ({ key, reversed: s.key === key ? !s.reversed : false }));
  // The selection in the list's order: the export's items follow it.
  const chosen = rows.filter((r) => selected.has(r.id));
  const clips = new Set(chosen.map((r) => r.clipId)).size;

  return (
    <div className="view selects-view" data-view="selects">
      <div className="row">
        <h1>Selects</h1>
        <span className="muted" data-testid="selects-count">
          {selects.length} range{selects.length === 1 ? '' : 's'}
        </span>
        <span className="spacer" />
        <input type="search" placeholder="Filter by clip, name, note or keyword" aria-label="Filter selects" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {error && <div className="banner error">{error}</div>}
      <div className="batch-bar card row" role="toolbar" aria-label="Selected ranges" data-testid="selects-bar">
        <strong data-testid="selects-selected">
          {chosen.length} selected{chosen.length > 0 ? ` from ${clips} clip${clips === 1 ? '' : 's'}` : ''}
        </strong>
        <ExportMenu selection={{ rangeIds: chosen.map((r) => r.id) }} label="Export selected" disabled={chosen.length === 0} />
      </div>
      <div
        className="selects-body library-clips"
        tabIndex={0}
        ref={body}
        onKeyDown={onKeyDown}
        data-testid="selects-list"
        aria-label="Selects: arrows, Home and End move, Shift extends, Enter opens, Ctrl+A selects all"
      >
        {selects.length === 0 ? (
          <div className="empty">No saved ranges yet. Mark In and Out in the viewer and save a range, or save search results as ranges.</div>
        ) : (
          <table className="clip-table selects-table">
            <thead>
              <tr>
                <th aria-hidden />
                {COLUMNS.map((c) =>
                  c.key === null ? (
                    <th key={c.label}>{c.label}</th>
                  ) : (
                    <th key={c.key} aria-sort={sort.key === c.key ? (sort.reversed ? 'descending' : 'ascending') : undefined}>
                      <button type="button" className="btn link" onClick={() => onSort(c.key!)} data-sort={c.key}>
                        {c.label}
                        {sort.key === c.key ? (sort.reversed ? ' ▾' : ' ▴') : ''}
                      </button>
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((s, i) => (
                <tr
                  key={s.id}
                  data-select-row={i}
                  data-range-id={s.id}
                  className={`${selected.has(s.id) ? 'selected' : ''}${focus === i ? ' focused' : ''}`}
                  aria-selected={selected.has(s.id)}
                  onClick={(e) => {
                    pick(i, e);
                    body.current?.focus({ preventScroll: true });
                  }}
                  onDoubleClick={() => setViewer(s)}
                >
                  <td className="selects-poster">{s.poster ? <img src={api.mediaUrl({ kind: 'thumb', path: s.poster.path })} alt="" loading="lazy" /> : null}</td>
                  <td>{s.clipName}</td>
                  <td className="mono">{tcFrame(clockOf(s), s.inFrame)}</td>
                  <td className="mono" title="The range's last frame">
                    {tcFrame(clockOf(s), s.outFrame - 1)}
                  </td>
                  <td className="mono">{tcLength(clockOf(s), s.outFrame - s.inFrame)}</td>
                  <td data-col="name">{s.name}</td>
                  <td data-col="rating">{s.rating === 'favorite' ? '★ Favourite' : s.rating === 'reject' ? '⊘ Reject' : ''}</td>
                  <td className="muted">{s.note}</td>
                  <td className="muted">{s.keywords.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {viewer && (
        <Viewer
          key={viewer.id}
          clipId={viewer.clipId}
          range={rangeOfFrames({ inFrame: viewer.inFrame, outFrame: viewer.outFrame }, viewer.rate)}
          onClose={() => {
            setViewer(null);
            body.current?.focus({ preventScroll: true });
          }}
        />
      )}
    </div>
  );
}
