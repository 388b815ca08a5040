/**
 * J/K/L shuttle as NLEs do it, as a pure transition (state + key -> state): L plays forward and
 * each further L doubles the speed (1x, 2x, 4x, 8x); J the same backwards; K stops; Space toggles
 * normal play. K held with J or L steps one frame instead (the viewer reads `step`).
 */
export interface ShuttleState {
  /** Signed speed: 0 stopped, 1 normal play, -2 double speed backwards... */
  speed: number;
  /** K is held down: J/L become single-frame steps. */
  kHeld: boolean;
}

export type ShuttleEvent =
  | { type: 'J' }
  | { type: 'K'; down: boolean }
  | { type: 'L' }
  | { type: 'space' }
  | { type: 'stop' }
  | { type: 'ended' };

export const MAX_SPEED = 8;
export const STOPPED: ShuttleState = { speed: 0, kHeld: false };

export function nextShuttle(s: ShuttleState, e: ShuttleEvent): { state: ShuttleState; step: -1 | 0 | 1 } {
  switch (e.type) {
    case 'K':
      return { state: { speed: e.down ? 0 : s.speed, kHeld: e.down }, step: 0 };
    case 'L':
      if (s.kHeld) return { state: s, step: 1 };
      return { state: { ...s, speed: s.speed <= 0 ? 1 : Math.min(MAX_SPEED, s.speed * 2) }, step: 0 };
    case 'J':
      if (s.kHeld) return { state: s, step: -1 };
      return { state: { ...s, speed: s.speed >= 0 ? -1 : Math.max(-MAX_SPEED, s.speed * 2) }, step: 0 };
    case 'space':
      return { state: { ...s, speed: s.speed === 0 ? 1 : 0 }, step: 0 };
    case 'stop':
    case 'ended':
      return { state: { ...s, speed: 0 }, step: 0 };
  }
}
