/**
 * Library multi-select as a pure transition (state + event -> state), the way file browsers and
 * NLE bins behave: a click selects one, Ctrl/Cmd-click toggles, Shift-click selects the run from
 * the anchor, arrow keys move the focus (Shift extends from the anchor), Ctrl/Cmd+A selects all.
 * Positions are indexes in the current order; `idAt` reads the clip id at an index (undefined
 * while its page is not loaded: such clips are skipped, never guessed).
 */
export interface SelectionState {
  ids: ReadonlySet<number>;
  /** Where a Shift-selection starts. */
  anchor: number | null;
  /** The keyboard's position (the card with the focus ring). */
  focus: number | null;
}

export type SelectionEvent =
  | { type: 'click'; index: number; id: number; toggle: boolean; range: boolean }
  | { type: 'move'; delta: number; extend: boolean; total: number }
  | { type: 'all'; ids: readonly number[] }
  | { type: 'clear' }
  /** The order or filter changed: positions mean other clips now. */
  | { type: 'reset' };

export const NO_SELECTION: SelectionState = { ids: new Set(), anchor: null, focus: null };

/**
 * How far a navigation key moves the keyboard's position, as file browsers move it: arrows by one
 * card (Left/Right in the grid only) or one row, PageUp/PageDown by what one screen shows (whole
 * rows), Home/End to the first and last clip (the move clamps). Null: not a navigation key.
 */
export function navigationDelta(key: string, layout: 'grid' | 'list', view: { cols: number; page: number }, total: number): number | null {
  const row = layout === 'grid' ? Math.max(1, view.cols) : 1;
  const page = Math.max(row, Math.floor(view.page / row) * row);
  switch (key) {
    case 'ArrowRight':
      return layout === 'grid' ? 1 : null;
    case 'ArrowLeft':
      return layout === 'grid' ? -1 : null;
    case 'ArrowDown':
      return row;
    case 'ArrowUp':
      return -row;
    case 'PageDown':
      return page;
    case 'PageUp':
      return -page;
    case 'Home':
      return -Math.max(1, total);
    case 'End':
      return Math.max(1, total);
    default:
      return null;
  }
}

function runIds(from: number, to: number, idAt: (i: number) => number | undefined): Set<number> {
  const out = new Set<number>();
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    const id = idAt(i);
    if (id !== undefined) out.add(id);
  }
  return out;
}

export function nextSelection(s: SelectionState, e: SelectionEvent, idAt: (i: number) => number | undefined): SelectionState {
  switch (e.type) {
    case 'click': {
      if (e.range && s.anchor !== null) return { ids: runIds(s.anchor, e.index, idAt), anchor: s.anchor, focus: e.index };
      if (e.toggle) {
        const ids = new Set(s.ids);
        if (ids.has(e.id)) ids.delete(e.id);
        else ids.add(e.id);
        return { ids, anchor: e.index, focus: e.index };
      }
      return { ids: new Set([e.id]), anchor: e.index, focus: e.index };
    }
    case 'move': {
      if (e.total === 0) return s;
      const from = s.focus ?? (e.delta > 0 ? -1 : e.total);
      const focus = Math.max(0, Math.min(e.total - 1, from + e.delta));
      const id = idAt(focus);
      if (e.extend) {
        const anchor = s.anchor ?? s.focus ?? focus;
        return { ids: runIds(anchor, focus, idAt), anchor, focus };
      }
      return { ids: id === undefined ? new Set() : new Set([id]), anchor: focus, focus };
    }
    case 'all':
      return { ids: new Set(e.ids), anchor: s.anchor, focus: s.focus };
    case 'clear':
      return { ids: new Set(), anchor: s.focus, focus: s.focus };
    case 'reset':
      return NO_SELECTION;
  }
}
