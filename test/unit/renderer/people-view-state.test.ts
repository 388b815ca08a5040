import { describe, expect, it } from 'vitest';
import type { PersonFace } from '../../../src-shared/contract/people';
import { NO_FACES, nextFaces, selectedFaceIds, type FacesEvent, type FacesState } from '../../../src-renderer/src/components/people/person-faces-state';
import { faceWhere, nameProblem } from '../../../src-renderer/src/components/people/people-format';
import { nameOfBox } from '../../../src-renderer/src/components/people/face-name';

const face = (faceId: number): PersonFace => ({ faceId, clipId: 1, clipName: 'A001.mov', frame: null, timeS: faceId / 2, quality: 0.8, image: null, how: 'grouped' });
const run = (s: FacesState, ...events: FacesEvent[]) => events.reduce(nextFaces, s);
const click = (index: number, id: number, mods: { toggle?: boolean; range?: boolean } = {}): FacesEvent => ({ type: 'select', event: { type: 'click', index, id, toggle: !!mods.toggle, range: !!mods.range } });

/** The People view's faces panel as state + event -> state: pages, selection, faces moved out. */
describe('person faces panel state', () => {
  const first = run(NO_FACES, { type: 'page', offset: 0, faces: [1, 2, 3, 4].map(face), total: 6 });

  it('adds later pages without repeating a face, and a click then Shift-click selects the run', () => {
    const more = run(first, { type: 'page', offset: 4, faces: [4, 5, 6].map(face), total: 6 });
    expect(more.faces.map((f) => f.faceId)).toEqual([1, 2, 3, 4, 5, 6]);
    const s = run(more, click(1, 2), click(4, 5, { range: true }));
    expect(selectedFaceIds(s)).toEqual([2, 3, 4, 5]);
    // Ctrl-click takes one out; the keyboard extends from the anchor.
    expect(selectedFaceIds(run(s, click(2, 3, { toggle: true })))).toEqual([2, 4, 5]);
    expect(selectedFaceIds(run(more, click(0, 1), { type: 'select', event: { type: 'move', delta: 1, extend: true, total: 6 } }))).toEqual([1, 2]);
  });

  it('drops moved faces and the selection, and counts them off the total', () => {
    const s = run(first, click(0, 1), click(1, 2, { range: true }), { type: 'moved', faceIds: [1, 2] });
    expect(s.faces.map((f) => f.faceId)).toEqual([3, 4]);
    expect(s.total).toBe(4);
    expect(s.selection.ids.size).toBe(0);
  });

  it('keeps what is still there selected when the first page is read again', () => {
    const s = run(first, click(0, 1), click(2, 3, { toggle: true }), { type: 'page', offset: 0, faces: [3, 4, 7].map(face), total: 3 });
    expect(selectedFaceIds(s)).toEqual([3]);
    expect(s.selection.focus).toBeNull();
  });
});

describe('name problems shown next to the field', () => {
  it('refuses empty, quoted and far too long names in words an editor reads', () => {
    expect(nameProblem('   ')).toBe('A name cannot be empty.');
    expect(nameProblem('@maria')).toMatch(/cannot start with @/);
    expect(nameProblem('x'.repeat(2000))).toBe('A name can be at most 80 characters; this one has 2,000.');
    expect(nameProblem('  Ana   María ')).toBeNull();
  });

  it('says where a face is', () => {
    expect(faceWhere({ clipName: 'A001.mov', timeS: 72.46 })).toBe('A001.mov 1:12.5');
  });
});

describe('the viewer\'s name on a face box', () => {
  const names = [
    { timeS: 1.5, x: 0.05, y: 0.3, name: 'Maria' },
    { timeS: 1.5, x: 0.35, y: 0.3, name: null },
    { timeS: 2, x: 0.05, y: 0.3, name: 'Tom' },
  ];
  it('names the box of the same sample and place only', () => {
    expect(nameOfBox(names, 1.5, { x: 0.05, y: 0.3 })).toBe('Maria');
    expect(nameOfBox(names, 2, { x: 0.05, y: 0.3 })).toBe('Tom');
    // Someone not named yet, and a box of another sample: no name drawn.
    expect(nameOfBox(names, 1.5, { x: 0.35, y: 0.3 })).toBeNull();
    expect(nameOfBox(names, 1.0, { x: 0.05, y: 0.3 })).toBeNull();
  });
});
