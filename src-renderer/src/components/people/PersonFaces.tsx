import { useEffect, useReducer, useRef, type ReactNode } from 'react';
import { api } from '../../api/client';
import { FaceTile } from './FaceTile';
import { NO_FACES, nextFaces, selectedFaceIds } from './person-faces-state';
import { PersonPicker, useRowCall, type PersonChoice } from './PersonActions';

/** Faces read at a time: a person seen in a whole shoot has thousands. */
const PAGE = 60;
const TILE = 88;

/** Tiles in the panel's first line: how far Up and Down move the keyboard's position. */
function columnsOf(list: HTMLElement | null): number {
  const items = list ? [...list.children] as HTMLElement[] : [];
  const top = items[0]?.offsetTop;
  return Math.max(1, items.filter((el) => el.offsetTop === top).length);
}

/**
 * One person's faces, best first, a page at a time. Faces are selected as in the Library (click,
 * Ctrl/Cmd-click, Shift-click; arrows, Shift+arrows, Space, Ctrl+A, Esc) and moved out: "Not
 * <name>" into a group of their own, or "Move to…" another person.
 */
export function PersonFaces({ personId, label, others, version, onChanged }: { personId: number; label: string; others: readonly PersonChoice[]; version: number; onChanged: () => void }): ReactNode {
  const [s, dispatch] = useReducer(nextFaces, NO_FACES);
  const list = useRef<HTMLUListElement>(null);
  const { run, error, busy } = useRowCall(onChanged);
  const more = () =>
    api.call('people.faces', { personId, offset: s.faces.length, limit: PAGE }).then((r) => dispatch({ type: 'page', offset: s.faces.length, faces: r.faces, total: r.total }), () => undefined);
  // The person changed (version): the pages read so far are read again as one.
  const shown = useRef(PAGE);
  shown.current = Math.max(PAGE, s.faces.length);
  useEffect(() => {
    let live = true;
    api.call('people.faces', { personId, offset: 0, limit: Math.min(500, shown.current) }).then(
      (r) => live && dispatch({ type: 'page', offset: 0, faces: r.faces, total: r.total }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [personId, version]);

  const chosen = selectedFaceIds(s);
  const split = (into: number | null) =>
    void run('people.split', { personId, faceIds: chosen, into }).then((ok) => ok && dispatch({ type: 'moved', faceIds: chosen }));

  const onKeyDown = (e: React.KeyboardEvent) => {
    const total = s.faces.length;
    const delta = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columnsOf(list.current), ArrowUp: -columnsOf(list.current), Home: -total, End: total }[e.key];
    if (delta !== undefined) {
      e.preventDefault();
      dispatch({ type: 'select', event: { type: 'move', delta, extend: e.shiftKey, total } });
    } else if (e.key === ' ' && s.selection.focus !== null) {
      e.preventDefault();
      const f = s.faces[s.selection.focus];
      if (f) dispatch({ type: 'select', event: { type: 'click', index: s.selection.focus, id: f.faceId, toggle: true, range: false } });
    } else if (e.key.toLowerCase() === 'a' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      dispatch({ type: 'select', event: { type: 'all', ids: s.faces.map((f) => f.faceId) } });
    } else if (e.key === 'Escape') dispatch({ type: 'select', event: { type: 'clear' } });
  };
  useEffect(() => {
    if (s.selection.focus !== null) list.current?.children[s.selection.focus]?.scrollIntoView({ block: 'nearest' });
  }, [s.selection.focus]);

  return (
    <section className="pp-faces" aria-label={`Faces of ${label}`} data-testid="person-faces">
      <div className="pp-faces-bar">
        <span className="muted" data-testid="faces-selected">
          {chosen.length ? `${chosen.length} of ${s.total} selected` : `${s.total} faces · click, Shift-click or arrows and Space to select`}
        </span>
        <button type="button" className="btn" disabled={busy || chosen.length === 0} onClick={() => split(null)} data-action="split-out">
          Not {label}
        </button>
        <PersonPicker choices={others} label="Move to…" action="move" disabled={busy || chosen.length === 0} onPick={(id) => split(id)} />
      </div>
      {error && <p className="error-text" role="alert">{error}</p>}
      <ul
        className="pp-faces-grid"
        ref={list}
        role="listbox"
        aria-multiselectable="true"
        aria-label={`Faces of ${label}: arrows move, Shift extends, Space selects`}
        aria-activedescendant={s.selection.focus !== null ? `pp-face-${personId}-${s.selection.focus}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {s.faces.map((f, i) => (
          <li
            key={f.faceId}
            id={`pp-face-${personId}-${i}`}
            role="option"
            aria-selected={s.selection.ids.has(f.faceId)}
            className={`pp-faces-item${s.selection.ids.has(f.faceId) ? ' selected' : ''}${s.selection.focus === i ? ' focused' : ''}`}
            data-face-id={f.faceId}
            onClick={(e) => dispatch({ type: 'select', event: { type: 'click', index: i, id: f.faceId, toggle: e.ctrlKey || e.metaKey, range: e.shiftKey } })}
          >
            <FaceTile face={f} size={TILE} />
          </li>
        ))}
      </ul>
      {s.faces.length < s.total && (
        <button type="button" className="btn" onClick={() => void more()} data-action="more-faces">
          Show {Math.min(PAGE, s.total - s.faces.length)} more of {s.total - s.faces.length}
        </button>
      )}
    </section>
  );
}
