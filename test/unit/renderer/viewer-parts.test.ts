import { describe, expect, it } from 'vitest';
import { trapTab, VIEWER_KEYS, viewerKeyDown, viewerKeyUp, type KeyPress } from '../../../src-renderer/src/components/viewer/keys';
import { presentedFrame, reverseTarget } from '../../../src-renderer/src/components/viewer/presented-frame';
import { clearIn, clearOut, markedFrames, markIn, marksOfRange, markOut, NO_MARKS, rangeOfFrames, rangeOnGrid, shotJumpTarget } from '../../../src-renderer/src/components/viewer/marks';
import { DEFAULT_OVERLAY, loadOverlay, moveOverlay, parseOverlay, saveOverlay, toggleOverlay } from '../../../src-renderer/src/components/viewer/overlay';

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
    // M is a marker in every NLE (the sound has its button).
    expect(viewerKeyDown(press('m'))).toEqual({ type: 'marker' });
    expect(viewerKeyDown(press('m', { repeat: true }))).toBeNull();
    // A held key does not double the shuttle; modifiers belong to the browser and the OS.
    expect(viewerKeyDown(press('l', { repeat: true }))).toBeNull();
    expect(viewerKeyDown(press('l', { metaKey: true }))).toBeNull();
    expect(viewerKeyDown(press('q'))).toBeNull();
  });

  it('Home/End, Shift+arrows, Alt+I/O/X read by the physical key, X and ?', () => {
    expect(viewerKeyDown(press('Home'))).toEqual({ type: 'goTo', where: 'start' });
    expect(viewerKeyDown(press('End'))).toEqual({ type: 'goTo', where: 'end' });
    expect(viewerKeyDown(press('ArrowLeft', { shiftKey: true }))).toEqual({ type: 'stepSecond', dir: -1 });
    expect(viewerKeyDown(press('ArrowRight', { shiftKey: true }))).toEqual({ type: 'stepSecond', dir: 1 });
    expect(viewerKeyDown(press('ArrowRight'))).toEqual({ type: 'step', frames: 1 });
    // macOS types a dead key with Alt+I: the code says which key it was.
    expect(viewerKeyDown(press('ˆ', { altKey: true, code: 'KeyI' }))).toEqual({ type: 'clearIn' });
    expect(viewerKeyDown(press('ø', { altKey: true, code: 'KeyO' }))).toEqual({ type: 'clearOut' });
    expect(viewerKeyDown(press('x', { altKey: true, code: 'KeyX' }))).toEqual({ type: 'clearMarks' });
    expect(viewerKeyDown(press('j', { altKey: true, code: 'KeyJ' }))).toBeNull();
    expect(viewerKeyDown(press('x'))).toEqual({ type: 'markShot' });
    expect(viewerKeyDown(press('?', { shiftKey: true }))).toEqual({ type: 'help' });
  });

  it('the "?" list names every key the mapping answers', () => {
    const listed = VIEWER_KEYS.map(([k]) => k).join(' ');
    for (const k of ['J', 'K', 'L', 'Space', 'Home', 'End', 'Shift', 'Alt + I', 'Alt + X', 'X', 'M', 'T', '?', 'Esc']) expect(listed).toContain(k);
  });
});

describe('presented frame and reverse play', () => {
  const r2997 = { num: 30000, den: 1001 };
  it('a presented picture\'s media time is its frame, a tick either side included', () => {
    expect(presentedFrame(0, r2997)).toBe(0);
    expect(presentedFrame((145 * 1001) / 30000, r2997)).toBe(145);
    expect(presentedFrame((145 * 1001) / 30000 - 1 / 90000, r2997)).toBe(145);
    expect(presentedFrame((145 * 1001) / 30000 + 1 / 90000, r2997)).toBe(145);
    expect(presentedFrame(5.8, { num: 25, den: 1 })).toBe(145);
  });
  it('reverse play reaches back by speed x elapsed, never before frame 0', () => {
    expect(reverseTarget(100, -1, 1, { num: 25, den: 1 })).toBe(75);
    expect(reverseTarget(100, -2, 1, { num: 25, den: 1 })).toBe(50);
    expect(reverseTarget(100, -8, 1, { num: 25, den: 1 })).toBe(0);
    expect(reverseTarget(100, -1, 0.01, { num: 25, den: 1 })).toBe(100);
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

  it('Alt+I and Alt+O clear one mark and keep the other', () => {
    expect(clearIn({ inFrame: 10, outFrame: 50 })).toEqual({ inFrame: null, outFrame: 50 });
    expect(clearOut({ inFrame: 10, outFrame: 50 })).toEqual({ inFrame: 10, outFrame: null });
  });

  it('a range opened from frames comes back as the same frames', () => {
    const r = { num: 30000, den: 1001 };
    expect(marksOfRange(rangeOfFrames({ inFrame: 47, outFrame: 101 }, r), r)).toEqual({ inFrame: 47, outFrame: 101 });
    // A conformed clip's shot opened at its first picture's time (1.0 s at 29.97): In is the first frame showing it (30, at 1.001 s), as the shot list counts.
    expect(marksOfRange({ startS: 1, endS: 2 }, r, true)).toEqual({ inFrame: 30, outFrame: 60 });
    expect(marksOfRange({ startS: 1, endS: 2 }, r)).toEqual({ inFrame: 29, outFrame: 59 });
    expect(marksOfRange(rangeOfFrames({ inFrame: 47, outFrame: 101 }, r), r, true)).toEqual({ inFrame: 47, outFrame: 101 });
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

describe('a saved range on the viewer grid', () => {
  const r25 = { num: 25, den: 1 };
  const r30 = { num: 30, den: 1 };
  it('is unchanged at the rate it was saved at', () => {
    expect(rangeOnGrid({ inFrame: 48, outFrame: 49, rate: r25 }, r25)).toEqual({ inFrame: 48, outFrame: 49 });
  });
  it('keeps its moments when the clip is counted at another rate since (a VFR clip re-probed at 30)', () => {
    // Frame 48 at 25 fps starts at 1.92 s: frame 57 at 30 fps (1.9 s to 1.933 s) holds it, not 48 (1.6 s).
    expect(rangeOnGrid({ inFrame: 48, outFrame: 49, rate: r25 }, r30)).toEqual({ inFrame: 57, outFrame: 58 });
    expect(rangeOnGrid({ inFrame: 0, outFrame: 50, rate: r25 }, r30)).toEqual({ inFrame: 0, outFrame: 60 });
    expect(rangeOnGrid({ inFrame: 24, outFrame: 25, rate: { num: 24000, den: 1001 } }, { num: 30000, den: 1001 })).toEqual({ inFrame: 30, outFrame: 31 });
  });
});
