import type { CatalogDb } from '../catalog/open-catalog';

export interface FrameFaceBoxes {
  timeS: number;
  faces: { x: number; y: number; w: number; h: number; score: number }[];
}

/** The faces the local analysis stored for a shot, frame by frame (boxes as fractions of the picture). */
export function shotFaces(db: CatalogDb, shotId: number): FrameFaceBoxes[] {
  const rows = db
    .prepare('SELECT frame_idx, time_s, x, y, w, h, score FROM shot_faces WHERE shot_id = ? ORDER BY frame_idx, score DESC')
    .all(shotId) as { frame_idx: number; time_s: number; x: number; y: number; w: number; h: number; score: number }[];
  const frames = new Map<number, FrameFaceBoxes>();
  for (const r of rows) {
    const f = frames.get(r.frame_idx) ?? { timeS: r.time_s, faces: [] };
    f.faces.push({ x: r.x, y: r.y, w: r.w, h: r.h, score: r.score });
    frames.set(r.frame_idx, f);
  }
  return [...frames.values()];
}
