import type { ShuttleEvent } from './shuttle';

/**
 * The viewer's keys as a pure mapping (key press -> what the viewer does), the keys editors know
 * from their NLEs: J/K/L shuttle, Space, arrows for frames (Shift: a second, as Resolve does) and
 * shots, Home/End, I/O marks (Shift: go to them, Alt: clear them, Alt+X both), X marks the shot
 * under the playhead, M adds a marker (as in Premiere, Resolve, Final Cut and Avid; the sound is
 * muted with its button). T shows or hides the tags over the picture (O stays Mark Out), ? lists
 * the keys. Esc closes the viewer from anywhere in it, a text field included: nothing else a key
 * does in a field is taken from it. Alt combinations are read from the physical key (`code`):
 * on macOS Alt+I types a dead key, not "i".
 */
export type ViewerAction =
  | { type: 'close' }
  | { type: 'shuttle'; event: ShuttleEvent }
  | { type: 'step'; frames: -1 | 1 }
  /** Shift+arrows: one second of frames (the rate's nominal frames per second). */
  | { type: 'stepSecond'; dir: -1 | 1 }
  | { type: 'goTo'; where: 'start' | 'end' }
  | { type: 'clearIn' }
  | { type: 'clearOut' }
  | { type: 'clearMarks' }
  | { type: 'markShot' }
  | { type: 'marker' }
  | { type: 'help' }
  | { type: 'shot'; dir: -1 | 1 }
  | { type: 'markIn' }
  | { type: 'markOut' }
  | { type: 'goToIn' }
  | { type: 'goToOut' }
  | { type: 'mute' }
  | { type: 'overlay' };

/** Every key, as the "?" overlay and the README list them. */
export const VIEWER_KEYS: ReadonlyArray<readonly [keys: string, what: string]> = [
  ['J / K / L', 'play backwards / stop / forwards (press again: faster); hold K + J or L: one frame'],
  ['Space', 'play or stop'],
  ['← / →', 'one frame back / forward'],
  ['Shift + ← / →', 'one second back / forward'],
  ['↑ / ↓', 'previous / next shot'],
  ['Home / End', 'first / last frame'],
  ['I / O', 'mark In / Out'],
  ['Shift + I / O', 'go to In / Out'],
  ['Alt + I / O', 'clear In / Out'],
  ['Alt + X', 'clear In and Out'],
  ['X', 'mark the shot under the playhead'],
  ['M', 'add a marker at this frame'],
  ['T', 'show or hide the tags over the picture'],
  ['?', 'show or hide this list'],
  ['Esc', 'close the viewer'],
];

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  repeat: boolean;
  /** The key went to a text field, a select or an editable element. */
  typing: boolean;
  /** The physical key ('KeyI'), for Alt combinations. */
  code?: string;
}

export function viewerKeyDown(e: KeyPress): ViewerAction | null {
  if (e.key === 'Escape') return { type: 'close' };
  if (e.typing || e.metaKey || e.ctrlKey) return null;
  if (e.altKey) {
    const code = e.code ?? `Key${e.key.toUpperCase()}`;
    if (code === 'KeyI') return { type: 'clearIn' };
    if (code === 'KeyO') return { type: 'clearOut' };
    if (code === 'KeyX') return { type: 'clearMarks' };
    return null;
  }
  if (e.key === '?') return { type: 'help' };
  const key = e.key.toLowerCase();
  switch (key) {
    case 'j':
      return e.repeat ? null : { type: 'shuttle', event: { type: 'J' } };
    case 'l':
      return e.repeat ? null : { type: 'shuttle', event: { type: 'L' } };
    case 'k':
      return e.repeat ? null : { type: 'shuttle', event: { type: 'K', down: true } };
    case ' ':
      return { type: 'shuttle', event: { type: 'space' } };
    case 'arrowleft':
      return e.shiftKey ? { type: 'stepSecond', dir: -1 } : { type: 'step', frames: -1 };
    case 'arrowright':
      return e.shiftKey ? { type: 'stepSecond', dir: 1 } : { type: 'step', frames: 1 };
    case 'home':
      return { type: 'goTo', where: 'start' };
    case 'end':
      return { type: 'goTo', where: 'end' };
    case 'x':
      return { type: 'markShot' };
    case 'arrowup':
      return { type: 'shot', dir: -1 };
    case 'arrowdown':
      return { type: 'shot', dir: 1 };
    case 'i':
      return e.shiftKey ? { type: 'goToIn' } : { type: 'markIn' };
    case 'o':
      return e.shiftKey ? { type: 'goToOut' } : { type: 'markOut' };
    case 'm':
      return e.repeat ? null : { type: 'marker' };
    case 't':
      return { type: 'overlay' };
    default:
      return null;
  }
}

/** K released: J/L shuttle again instead of stepping. */
export function viewerKeyUp(e: Pick<KeyPress, 'key'>): ViewerAction | null {
  return e.key.toLowerCase() === 'k' ? { type: 'shuttle', event: { type: 'K', down: false } } : null;
}

/**
 * Tab inside a modal: the next (Shift: previous) of its focusable elements, wrapping at the ends,
 * so focus never walks out into the page behind it. `current` -1: focus is on the dialog itself
 * (or nowhere): Tab goes to the first, Shift+Tab to the last. Null: nothing to focus.
 */
export function trapTab(count: number, current: number, shift: boolean): number | null {
  if (count === 0) return null;
  if (current < 0) return shift ? count - 1 : 0;
  return shift ? (current - 1 + count) % count : (current + 1) % count;
}
