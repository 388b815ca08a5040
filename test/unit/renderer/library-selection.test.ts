import { describe, expect, it } from 'vitest';
import { navigationDelta, nextSelection, NO_SELECTION, type SelectionEvent, type SelectionState } from '../../../src-renderer/src/components/library/selection';

// Ten clips in view, ids 100..109 at positions 0..9; position 7's page is "not loaded".
const idAt = (i: number) => (i >= 0 && i < 10 && i !== 7 ? 100 + i : undefined);
const run = (events: SelectionEvent[], from: SelectionState = NO_SELECTION) => events.reduce((s, e) => nextSelection(s, e, idAt), from);
const ids = (s: SelectionState) => [...s.ids].sort((a, b) => a - b);
const click = (index: number, mods: { toggle?: boolean; range?: boolean } = {}): SelectionEvent => ({ type: 'click', index, id: 100 + index, toggle: !!mods.toggle, range: !!mods.range });

describe('Library selection', () => {
  it('a click selects one clip and sets the anchor', () => {
    const s = run([click(2), click(4)]);
    expect(ids(s)).toEqual([104]);
    expect(s.anchor).toBe(4);
  });

  it('Ctrl/Cmd-click adds and removes single clips', () => {
    expect(ids(run([click(2), click(5, { toggle: true }), click(8, { toggle: true })]))).toEqual([102, 105, 108]);
    expect(ids(run([click(2), click(5, { toggle: true }), click(2, { toggle: true })]))).toEqual([105]);
  });

  it('Shift-click selects the run from the anchor in either direction, skipping unloaded positions', () => {
    expect(ids(run([click(3), click(6, { range: true })]))).toEqual([103, 104, 105, 106]);
    expect(ids(run([click(9), click(6, { range: true })]))).toEqual([106, 108, 109]);
    // The anchor stays: a second Shift-click redraws the run from it.
    expect(ids(run([click(3), click(6, { range: true }), click(1, { range: true })]))).toEqual([101, 102, 103]);
  });

  it('arrow keys move the focus and select it; Shift extends from the anchor; the ends clamp', () => {
    const a = run([click(4), { type: 'move', delta: 1, extend: false, total: 10 }]);
    expect(ids(a)).toEqual([105]);
    const b = run([click(4), { type: 'move', delta: 1, extend: true, total: 10 }, { type: 'move', delta: 1, extend: true, total: 10 }]);
    expect(ids(b)).toEqual([104, 105, 106]);
    expect(run([click(9), { type: 'move', delta: 5, extend: false, total: 10 }]).focus).toBe(9);
    // Grid rows: a delta of the column count moves down a row.
    expect(ids(run([click(1), { type: 'move', delta: 4, extend: false, total: 10 }]))).toEqual([105]);
    // From nothing, Down starts at the first clip.
    expect(ids(run([{ type: 'move', delta: 1, extend: false, total: 10 }]))).toEqual([100]);
  });

  it('Select all takes the ids of the whole query; clear and reset empty it', () => {
    const all = run([{ type: 'all', ids: [100, 101, 150, 151] }]);
    expect(all.ids.size).toBe(4);
    expect(run([{ type: 'clear' }], all).ids.size).toBe(0);
    expect(run([click(3), { type: 'reset' }])).toEqual(NO_SELECTION);
  });

  it('Home, End, PageUp and PageDown move as file browsers do, in the grid by whole rows', () => {
    const grid = { cols: 4, page: 10 }; // 2.5 rows in view: a page is 2 rows
    expect(['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', 'a'].map((k) => navigationDelta(k, 'grid', grid, 10))).toEqual([1, -1, 4, -4, 8, -8, -10, 10, null]);
    expect(['ArrowRight', 'ArrowDown', 'PageDown', 'PageUp'].map((k) => navigationDelta(k, 'list', { cols: 1, page: 6 }, 10))).toEqual([null, 1, 6, -6]);
    // A screen smaller than a row still moves a row.
    expect(navigationDelta('PageDown', 'grid', { cols: 4, page: 0 }, 10)).toBe(4);
    const move = (key: string, from: SelectionState) => nextSelection(from, { type: 'move', delta: navigationDelta(key, 'list', { cols: 1, page: 6 }, 10)!, extend: false, total: 10 }, idAt);
    expect(move('End', NO_SELECTION).focus).toBe(9);
    expect(move('Home', NO_SELECTION).focus).toBe(0);
    expect(move('PageDown', move('Home', NO_SELECTION)).focus).toBe(6);
    expect(move('PageDown', move('PageDown', move('Home', NO_SELECTION))).focus).toBe(9);
    expect(ids(move('PageUp', move('End', NO_SELECTION)))).toEqual([103]);
  });
});
