import { canonicalTag } from '../tags/tag-vocabulary';
import type { CameraMotion, FrameFaces, LocalTag, ShotSize } from './analysis-types';

/**
 * Shot size from the height of the largest face box relative to the picture height. YuNet's box
 * runs from the brows to the chin, about three quarters of the head, so the bounds are head
 * fractions of the usual framing conventions times 0.75:
 *   >= 0.60  extreme close-up (the face overfills the frame)
 *   >= 0.33  close-up (head and the top of the shoulders)
 *   >= 0.20  medium close-up (chest up)
 *   >= 0.10  medium (waist up)
 *   >= 0.04  wide (full figure with room around it)
 *   <  0.04  extreme wide (the person is small in the landscape)
 * With the default 320 px detector input a 16:9 face needs about 10 px (ratio 0.055) to be found,
 * so extreme wide shots mostly have no face (and no local shot size); raise faceInputLongSide to see them.
 */
export const SHOT_SIZE_BOUNDS: ReadonlyArray<readonly [number, ShotSize]> = [
  [0.6, 'extreme close-up'],
  [0.33, 'close-up'],
  [0.2, 'medium close-up'],
  [0.1, 'medium'],
  [0.04, 'wide'],
  [0, 'extreme wide'],
];

export function shotSizeForFaceHeight(ratio: number): ShotSize {
  for (const [min, size] of SHOT_SIZE_BOUNDS) if (ratio >= min) return size;
  return 'extreme wide';
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface FaceSummary {
  framesSampled: number;
  framesWithFaces: number;
  /** Median over frames with a face of the largest face's height / picture height; null without faces. */
  largestFaceHeight: number | null;
  maxFaces: number;
  meanScore: number | null;
}

/** Faces below minScore are ignored, so a threshold chosen later still gives the same tags. */
export function summarizeFaces(frames: readonly FrameFaces[], minScore: number): FaceSummary {
  const heights: number[] = [];
  const scores: number[] = [];
  let maxFaces = 0;
  for (const f of frames) {
    const faces = f.faces.filter((x) => x.score >= minScore);
    if (faces.length === 0) continue;
    maxFaces = Math.max(maxFaces, faces.length);
    const largest = faces.reduce((a, b) => (b.h > a.h ? b : a));
    heights.push(largest.h);
    scores.push(largest.score);
  }
  return {
    framesSampled: frames.length,
    framesWithFaces: heights.length,
    largestFaceHeight: heights.length ? median(heights) : null,
    maxFaces,
    meanScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
  };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Tags available offline, before and without the service, as ids of the one tag vocabulary (so a
 * local "close-up" and the service's "CU" are the same facet). Confidence of a shot size grows with
 * the detector's score and with the share of frames that show a face.
 */
export function localTagsFor(summary: FaceSummary, motion: CameraMotion): LocalTag[] {
  const tags: LocalTag[] = [];
  // Without a face there is no local framing estimate; that no person was seen is the people
  // facet's (shot_analysis.max_faces), not a shot size.
  if (summary.framesSampled > 0 && summary.largestFaceHeight !== null) {
    const share = summary.framesWithFaces / summary.framesSampled;
    tags.push({
      category: 'shot_size',
      value: canonicalTag('shotSize', shotSizeForFaceHeight(summary.largestFaceHeight)),
      confidence: round3((summary.meanScore ?? 0) * (0.5 + 0.5 * share)),
      source: 'local',
      magnitude: round3(summary.largestFaceHeight),
    });
  }
  if (motion.movement !== null) {
    tags.push({ category: 'camera_movement', value: canonicalTag('cameraMovement', motion.movement), confidence: round3(motion.confidence), source: 'local', magnitude: round3(motion.magnitude) });
  }
  return tags;
}
