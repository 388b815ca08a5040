import type { CameraMotion, CameraMovement } from './analysis-types';
import type { MotionStep } from './workers/block-motion.cjs';

/**
 * Decision thresholds. Speeds in frame widths per second (both axes are divided by the width so a
 * pixel means the same angle either way), zoom in ln(scale) per second.
 * - 0.02 widths/s: a pan that would take 50 s to cross the frame; slower reads as static.
 * - 0.03 ln/s: 3% magnification per second; at the frame edge that moves content about as fast
 *   as a 0.015 widths/s pan, so zoom and pan thresholds are comparable.
 * - jitter 0.04 widths/s: shake of about 1.3 px per step at 160 px and 5 fps, well above what
 *   compression noise produces on a locked-off shot (under 0.005), below typical hand-held shake.
 */
export interface MotionThresholds {
  pan: number;
  tilt: number;
  zoom: number;
  jitter: number;
}

export const DEFAULT_MOTION_THRESHOLDS: MotionThresholds = { pan: 0.02, tilt: 0.02, zoom: 0.03, jitter: 0.04 };

/**
 * Mean after dropping the top and bottom 20%: a flash, a stray frame or a car crossing a flat road
 * for a few steps does not swing the result, while a move over most of the shot still counts.
 */
function trimmedMean(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const cut = Math.floor(s.length * 0.2);
  const kept = s.slice(cut, s.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Classifies a shot's camera motion from its per-step global motion (block-motion.cjs).
 * Sign convention: content moving left means the camera pans right (panSpeed > 0); content moving
 * down means the camera tilts up (tiltSpeed > 0); content growing means zoom in (zoomRate > 0).
 * Handheld = shake (step-to-step change of velocity) larger than the net movement in any one
 * direction; static = nothing above the thresholds.
 */
export function classifyMotion(
  steps: readonly MotionStep[],
  frameWidth: number,
  stepSeconds: number,
  thresholds: MotionThresholds = DEFAULT_MOTION_THRESHOLDS,
): CameraMotion {
  const valid = steps.filter((s) => s.valid);
  const none: CameraMotion = {
    movement: null,
    magnitude: 0,
    confidence: 0,
    panSpeed: 0,
    tiltSpeed: 0,
    zoomRate: 0,
    jitter: 0,
    steps: steps.length,
    validSteps: valid.length,
  };
  // Too few reliable steps (flat frames, black, a shot of one sample): no claim at all.
  if (valid.length === 0 || valid.length < steps.length / 2) return none;

  const vx = valid.map((s) => -s.tx / frameWidth / stepSeconds);
  const vy = valid.map((s) => s.ty / frameWidth / stepSeconds);
  const vz = valid.map((s) => Math.log(Math.max(1e-3, 1 + s.k)) / stepSeconds);
  const panSpeed = trimmedMean(vx);
  const tiltSpeed = trimmedMean(vy);
  const zoomRate = trimmedMean(vz);

  // Shake: how much the velocity changes from one step to the next. A steady pan has none,
  // however fast. The median (not the RMS) keeps a few outlier steps from reading as shake; for
  // independent per-axis noise of deviation s the median of |dv| is 1.665 s, so jitter reads as s.
  let jitter = 0;
  if (valid.length >= 3) {
    const dv: number[] = [];
    for (let i = 1; i < valid.length; i++) dv.push(Math.hypot(vx[i]! - vx[i - 1]!, vy[i]! - vy[i - 1]!));
    jitter = median(dv) / 1.665;
  }

  const candidates: Array<{ movement: CameraMovement; score: number; speed: number; edgeSpeed: number }> = [
    { movement: panSpeed >= 0 ? 'pan right' : 'pan left', score: Math.abs(panSpeed) / thresholds.pan, speed: Math.abs(panSpeed), edgeSpeed: Math.abs(panSpeed) },
    { movement: tiltSpeed >= 0 ? 'tilt up' : 'tilt down', score: Math.abs(tiltSpeed) / thresholds.tilt, speed: Math.abs(tiltSpeed), edgeSpeed: Math.abs(tiltSpeed) },
    // Content at the frame edge (half a width from the centre) moves at |zoomRate| / 2 widths/s.
    { movement: zoomRate >= 0 ? 'zoom in' : 'zoom out', score: Math.abs(zoomRate) / thresholds.zoom, speed: Math.abs(zoomRate), edgeSpeed: Math.abs(zoomRate) / 2 },
  ];
  const top = candidates.reduce((a, b) => (b.score > a.score ? b : a));
  const coverage = 0.5 + 0.5 * (valid.length / Math.max(1, steps.length));
  const fewSteps = valid.length < 3 ? 0.7 : 1;
  const jitterScore = jitter / thresholds.jitter;
  const base = { panSpeed, tiltSpeed, zoomRate, jitter, steps: steps.length, validSteps: valid.length };

  if (jitterScore >= 1 && (top.score < 1 || jitter > 1.5 * top.edgeSpeed)) {
    return { ...base, movement: 'handheld', magnitude: jitter, confidence: clamp((1 - 0.5 / jitterScore) * coverage, 0.3, 0.95) };
  }
  if (top.score < 1) {
    const closeness = Math.max(top.score, jitterScore);
    return { ...base, movement: 'static', magnitude: 0, confidence: clamp((1 - 0.5 * closeness) * coverage * fewSteps, 0.3, 0.95) };
  }
  return {
    ...base,
    movement: top.movement,
    magnitude: top.speed,
    confidence: clamp((1 - 0.5 / top.score) * coverage * fewSteps, 0.3, 0.95),
  };
}
