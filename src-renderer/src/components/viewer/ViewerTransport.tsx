import type { ReactNode } from 'react';
import type { ViewerAction } from './keys';
import { OVERLAY_POSITION_LABEL, OVERLAY_POSITIONS, type OverlayPosition, type OverlaySettings } from './overlay';

/**
 * The row under the picture: the buttons for what the keys do (each sends the same action as its
 * key, so a click and a key press cannot differ), the In/Out marks and their duration, and where
 * the tags show over the picture.
 */
export function ViewerTransport({ speed, muted, hasAudio, overlay, inTc, outTc, durationTc, run, onMoveOverlay }: {
  speed: number;
  muted: boolean;
  /** The clip has a sound track: without one the sound button says so and does nothing (LevelMeter too). */
  hasAudio: boolean;
  overlay: OverlaySettings;
  inTc: string;
  /** The range's last frame (Out is exclusive). */
  outTc: string;
  durationTc: string | null;
  run: (a: ViewerAction) => void;
  onMoveOverlay: (p: OverlayPosition) => void;
}): ReactNode {
  return (
    <div className="row viewer-transport">
      <button type="button" className="btn" title="Previous shot (↑)" onClick={() => run({ type: 'shot', dir: -1 })} aria-label="Previous shot">▲ shot</button>
      <button type="button" className="btn" title="Back one frame (←)" onClick={() => run({ type: 'step', frames: -1 })} aria-label="Back one frame">◁|</button>
      <button type="button" className="btn" title="Play backwards, again for faster (J)" onClick={() => run({ type: 'shuttle', event: { type: 'J' } })} aria-label="Play backwards">◀◀</button>
      <button type="button" className="btn" title="Play / pause (Space)" onClick={() => run({ type: 'shuttle', event: { type: 'space' } })} aria-label={speed === 0 ? 'Play' : 'Pause'} data-action="play">
        {speed === 0 ? '▶' : '❚❚'}
      </button>
      <button type="button" className="btn" title="Play forward, again for faster (L)" onClick={() => run({ type: 'shuttle', event: { type: 'L' } })} aria-label="Play faster">▶▶</button>
      <button type="button" className="btn" title="Forward one frame (→)" onClick={() => run({ type: 'step', frames: 1 })} aria-label="Forward one frame">|▷</button>
      <button type="button" className="btn" title="Next shot (↓)" onClick={() => run({ type: 'shot', dir: 1 })} aria-label="Next shot">▼ shot</button>
      {hasAudio ? (
        <button type="button" className="btn" onClick={() => run({ type: 'mute' })} aria-pressed={muted} title="Sound on/off" data-action="mute">
          {muted ? '♪ off' : '♪ on'}
        </button>
      ) : (
        <button type="button" className="btn" disabled title="This clip has no sound" data-action="mute">
          no sound
        </button>
      )}
      <span className="viewer-marks">
        <button type="button" className="btn" onClick={() => run({ type: 'markIn' })} title="Mark In (I); Shift+I goes to it" data-action="mark-in">
          In
        </button>
        <span data-testid="mark-in" className="mono">{inTc}</span>
        <button type="button" className="btn" onClick={() => run({ type: 'markOut' })} title="Mark Out (O), the range's last frame; Shift+O goes to it" data-action="mark-out">
          Out
        </button>
        <span data-testid="mark-out" className="mono" title="The range's last frame (inclusive)">{outTc}</span>
        <span className="muted mono" data-testid="mark-duration" title="Duration In to Out">
          {durationTc !== null ? `dur ${durationTc}` : ''}
        </span>
      </span>
      <span className="spacer" />
      <span className="viewer-overlay-setting row">
        <button type="button" className="btn" onClick={() => run({ type: 'overlay' })} aria-pressed={overlay.visible} title="Show or hide the tags over the picture (T)" data-action="overlay">
          Tags {overlay.visible ? 'on' : 'off'}
        </button>
        <select aria-label="Where the tags show over the picture" value={overlay.position} onChange={(e) => onMoveOverlay(e.target.value as OverlayPosition)} data-testid="overlay-position">
          {OVERLAY_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {OVERLAY_POSITION_LABEL[p]}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
