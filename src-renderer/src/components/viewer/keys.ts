import type { ShuttleEvent } from './shuttle';

/**
 * The viewer's keys as a pure mapping (key press -> what the viewer does), the keys editors know
 * from their NLEs: J/K/L shuttle, Space, arrows for frames and shots, I/O marks (Shift: go to
 * them), M sound. T shows or hides the tags over the picture (O stays Mark Out, as in every NLE).
 * Esc closes the viewer from anywhere in it, a text field included: nothing else a key does in a
 * field is taken from it.
 */
export type ViewerAction =
  | { type: 'close' }
  | { type: 'shuttle'; event: ShuttleEvent }
  | { type: 'step'; frames: -1 | 1 }
  | { type: 'shot'; dir: -1 | 1 }
  | { type: 'markIn' }
  | { type: 'markOut' }
  | { type: 'goToIn' }
  | { type: 'goToOut' }
  | { type: 'mute' }
  | { type: 'overlay' };

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  repeat: boolean;
  /** The key went to a text field, a select or an editable element. */
  typing: boolean;
}

export function viewerKeyDown(e: KeyPress): ViewerAction | null {
  if (e.key === 'Escape') return { type: 'close' };
  if (e.typing || e.metaKey || e.ctrlKey || e.altKey) return null;
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
      return { type: 'step', frames: -1 };
    case 'arrowright':
      return { type: 'step', frames: 1 };
    case 'arrowup':
      return { type: 'shot', dir: -1 };
    case 'arrowdown':
      return { type: 'shot', dir: 1 };
    case 'i':
      return e.shiftKey ? { type: 'goToIn' } : { type: 'markIn' };
    case 'o':
      return e.shiftKey ? { type: 'goToOut' } : { type: 'markOut' };
    case 'm':
      return { type: 'mute' };
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
