import type { EmulatorConfig } from './config';
import { dominantColour, frameStats, type FrameStats, type Frames } from './semantics';
import { spell } from './vocabulary';

/** What the emulator keeps of a video or video tensor: statistics, never the pixels. */
export interface VideoAnalysis {
  stats: FrameStats;
  segments: Array<{ start: number; end: number; stats: FrameStats }>;
  duration: number;
}

export function analyzeFrames(f: Frames): VideoAnalysis {
  const stats = frameStats(f);
  const n = f.frames.length;
  const step = n >= 2 ? (f.times[n - 1]! - f.times[0]!) / (n - 1) : 1;
  const duration = (f.times[n - 1] ?? 0) + step / 2;
  const groups = n >= 6 ? 3 : n >= 2 ? 2 : 1;
  const segments: VideoAnalysis['segments'] = [];
  for (let g = 0; g < groups; g++) {
    const a = Math.floor((g * n) / groups);
    const b = Math.floor(((g + 1) * n) / groups);
    const sub: Frames = { frames: f.frames.slice(a, b), width: f.width, height: f.height, times: f.times.slice(a, b) };
    const start = g === 0 ? 0 : round3(f.times[a]! - step / 2);
    const end = g === groups - 1 ? round3(duration) : round3(f.times[b]! - step / 2);
    segments.push({ start, end, stats: frameStats(sub) });
  }
  return { stats, segments, duration: round3(duration) };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

interface Label {
  label: string;
  title: string;
  confidence: number;
}

function conf(margin: number): number {
  return Math.round(Math.min(0.99, 0.55 + Math.abs(margin) * 3) * 100) / 100;
}

/** Placeholder rules on frame statistics: deterministic and documented, not cinematography. */
export function tagLabels(s: FrameStats): { shotSize: Label; cameraMovement: Label; shootingAngle: Label } {
  const shotSize: Label =
    s.lumaStd > 0.2
      ? { label: 'wide', title: 'Wide', confidence: conf(s.lumaStd - 0.2) }
      : s.lumaStd < 0.08
        ? { label: 'close_up', title: 'Close-Up', confidence: conf(0.08 - s.lumaStd) }
        : { label: 'medium', title: 'Medium', confidence: conf(Math.min(s.lumaStd - 0.08, 0.2 - s.lumaStd)) };
  const cameraMovement: Label =
    s.motion > 0.02 ? { label: 'moving', title: 'Moving', confidence: conf(s.motion - 0.02) } : { label: 'static', title: 'Static', confidence: conf(0.02 - s.motion) };
  const tilt = s.topBrightness - s.bottomBrightness;
  const shootingAngle: Label =
    tilt > 0.08
      ? { label: 'low_angle', title: 'Low Angle', confidence: conf(tilt - 0.08) }
      : tilt < -0.08
        ? { label: 'high_angle', title: 'High Angle', confidence: conf(-0.08 - tilt) }
        : { label: 'eye_level', title: 'Eye Level', confidence: conf(0.08 - Math.abs(tilt)) };
  return { shotSize, cameraMovement, shootingAngle };
}

function extras(s: FrameStats): Record<string, unknown> {
  return { dominant_color: dominantColour(s), brightness: Math.round(s.brightness * 1000) / 1000, saturation: Math.round(s.saturation * 1000) / 1000 };
}

/** The labels of a statistics summary spelled in a vocabulary style. */
function spelledLabels(s: FrameStats, style: EmulatorConfig['tagVocabulary']): ReturnType<typeof tagLabels> {
  const t = tagLabels(s);
  const one = (field: 'shotSize' | 'cameraMovement' | 'shootingAngle'): Label => ({
    ...t[field],
    label: spell(style, field, t[field].label),
    title: spell(style, field, t[field].label, t[field].title),
  });
  return { shotSize: one('shotSize'), cameraMovement: one('cameraMovement'), shootingAngle: one('shootingAngle') };
}

/** The tags structure in one of the shapes a real service might use (config tagShape), values in the tagVocabulary style. */
export function renderTags(a: VideoAnalysis, shape: EmulatorConfig['tagShape'], style: EmulatorConfig['tagVocabulary'] = 'snake'): unknown {
  const t = spelledLabels(a.stats, style);
  switch (shape) {
    case 'flat':
      return { shot_size: t.shotSize.label, camera_movement: t.cameraMovement.label, shooting_angle: t.shootingAngle.label, ...extras(a.stats) };
    case 'labeled':
      return {
        shot_size: { label: t.shotSize.label, confidence: t.shotSize.confidence },
        camera_movement: { label: t.cameraMovement.label, confidence: t.cameraMovement.confidence },
        shooting_angle: { label: t.shootingAngle.label, confidence: t.shootingAngle.confidence },
        ...extras(a.stats),
      };
    case 'segments': {
      const per = (field: 'shotSize' | 'cameraMovement' | 'shootingAngle') =>
        a.segments.map((seg) => {
          const l = spelledLabels(seg.stats, style)[field];
          return { start: seg.start, end: seg.end, label: l.label, confidence: l.confidence };
        });
      return { shot_size: per('shotSize'), camera_movement: per('cameraMovement'), shooting_angle: per('shootingAngle'), ...extras(a.stats) };
    }
    case 'title':
      return {
        'Shot Size': t.shotSize.title,
        'Camera Movement': t.cameraMovement.title,
        'Shooting Angle': t.shootingAngle.title,
        'Dominant Color': dominantColour(a.stats),
      };
    case 'nested':
      return {
        cinematography: {
          shotSize: { value: t.shotSize.label, score: t.shotSize.confidence },
          camera: { movement: { value: t.cameraMovement.label, score: t.cameraMovement.confidence }, angle: { value: t.shootingAngle.label, score: t.shootingAngle.confidence } },
        },
        color: extras(a.stats),
      };
    case 'segment-list':
      return {
        segments: a.segments.map((seg) => {
          const l = spelledLabels(seg.stats, style);
          return { start_time: seg.start, end_time: seg.end, shot_size: l.shotSize.label, camera_movement: l.cameraMovement.label, shooting_angle: l.shootingAngle.label };
        }),
        ...extras(a.stats),
      };
  }
}
