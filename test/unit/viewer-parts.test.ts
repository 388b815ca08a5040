import { describe, expect, it } from 'vitest';
import { trapTab, viewerKeyDown, viewerKeyUp, type KeyPress } from '../../src-renderer/src/components/viewer/keys';
import { markedFrames, markIn, marksOfRange, markOut, NO_MARKS, rangeOfFrames, shotJumpTarget } from '../../src-renderer/src/components/viewer/marks';
import { DEFAULT_OVERLAY, loadOverlay, moveOverlay, parseOverlay, saveOverlay, toggleOverlay } from '../../src-renderer/src/components/viewer/overlay';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, metaKey: false, ctrlKey: false, altKey: false, repeat: false, typing: false, ...over });

describe('viewer keys', () => {
  it('map the NLE keys to actions', () => {
    expect(viewerKeyDown(press('l'))).toEqual({ type: 'shuttle', event: { type: 'L' } });
    expect(viewerKeyDown(press('J'))).toEqual({ type: 'shuttle', event: { type: 'J' } });
    expect(viewerKeyDown(press('k'))).toEqual({ type: 'shuttle', event: { type: 'K', down: true } });
    expect(viewerKeyUp({ key: 'k' })).toEqual({ type: 'shuttle', event: { type: 'K', down: false } });
    expect(viewerKeyDown(press(' '))).toEqual({ type: 'shuttle', event: { type: 'space' } });
    expect(viewerKeyDown(press('ArrowRight'))).toEqual({ type: 'step', frames: 1 });
    expect(viewerKeyDown(press('ArrowUp'))).toEqual({ type: 'shot', dir: -1 });
    expect(viewerKeyDown(press('i'))).toEqual({ type: 'markIn' });
    expect(viewerKeyDown(press('O', { shiftKey: true }))).toEqual({ type: 'goToOut' });
    expect(viewerKeyDown(press('o'))).toEqual({ type: 'markOut' });
    expect(viewerKeyDown(press('t'))).toEqual({ type: 'overlay' });
    expect(viewerKeyDown(press('m'))).toEqual({ type: 'mute' });
    // A held key does not double the shuttle; modifiers belong to the browser and the OS.
    expect(viewerKeyDown(press('l', { repeat: true }))).toBeNull();
    expect(viewerKeyDown(press('l', { metaKey: true }))).toBeNull();
    expect(viewerKeyDown(press('x'))).toBeNull();
  });

  it('Esc closes from anywhere, a text field too; other keys in a field are the field\'s', () => {
    expect(viewerKeyDown(press('Escape'))).toEqual({ type: 'close' });
    expect(viewerKeyDown(press('Escape', { typing: true }))).toEqual({ type: 'close' });
    expect(viewerKeyDown(press('l', { typing: true }))).toBeNull();
    expect(viewerKeyDown(press(' ', { typing: true }))).toBeNull();
  });

  it('Tab wraps inside the viewer, both ways, and starts from the dialog itself', () => {
    expect(trapTab(5, 4, false)).toBe(0);
    expect(trapTab(5, 0, true)).toBe(4);
    expect(trapTab(5, 2, false)).toBe(3);
    expect(trapTab(5, -1, false)).toBe(0);
    expect(trapTab(5, -1, true)).toBe(4);
    expect(trapTab(0, -1, false)).toBeNull();
  });
});

describe('viewer marks', () => {
  it('I and O keep In before Out; Out is exclusive', () => {
    expect(markOut(markIn(NO_MARKS, 75), 149)).toEqual({ inFrame: 75, outFrame: 150 });
    expect(markIn({ inFrame: 10, outFrame: 50 }, 60)).toEqual({ inFrame: 60, outFrame: null });
    expect(markOut({ inFrame: 80, outFrame: null }, 40)).toEqual({ inFrame: null, outFrame: 41 });
  });

  it('a range opened from frames comes back as the same frames', () => {
    const r = { num: 30000, den: 1001 };
    expect(marksOfRange(rangeOfFrames({ inFrame: 47, outFrame: 101 }, r), r)).toEqual({ inFrame: 47, outFrame: 101 });
  });
});

describe('tag overlay setting', () => {
  it('toggles, moves to a corner (showing it), and survives a reload', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadOverlay(storage)).toEqual(DEFAULT_OVERLAY);
    const hidden = toggleOverlay(DEFAULT_OVERLAY);
    expect(hidden.visible).toBe(false);
    saveOverlay(storage, moveOverlay(hidden, 'bottom-right'));
    expect(loadOverlay(storage)).toEqual({ visible: true, position: 'bottom-right' });
    expect(parseOverlay('{"visible":"no","position":"middle"}')).toEqual(DEFAULT_OVERLAY);
    expect(parseOverlay('not json')).toEqual(DEFAULT_OVERLAY);
  });
});

describe('viewer marks and shot jumps', () => {
  it('measure In to Out, the clip\'s start and end standing in for a missing mark', () => {
    expect(markedFrames({ inFrame: 10, outFrame: 35 }, 100)).toBe(25);
    expect(markedFrames({ inFrame: null, outFrame: 35 }, 100)).toBe(35);
    expect(markedFrames({ inFrame: 10, outFrame: null }, 100)).toBe(90);
    // Nothing to measure: no Out and an unknown length, or an In at the clip's end.
    expect(markedFrames({ inFrame: 10, outFrame: null }, null)).toBeNull();
    expect(markedFrames({ inFrame: 100, outFrame: null }, 100)).toBeNull();
  });

  it('jump to the next or previous shot start, nowhere past the ends', () => {
    const starts = [0, 24, 61, 130];
    expect(shotJumpTarget(starts, 30, 1)).toBe(61);
    expect(shotJumpTarget(starts, 30, -1)).toBe(24);
    // On a shot's first frame, up goes to the shot before, not to itself.
    expect(shotJumpTarget(starts, 61, -1)).toBe(24);
    expect(shotJumpTarget(starts, 61, 1)).toBe(130);
    expect(shotJumpTarget(starts, 130, 1)).toBeNull();
    expect(shotJumpTarget(starts, 0, -1)).toBeNull();
  });
});
