import { iou } from '../analysis/workers/yunet.cjs';

/**
 * A face seen over time: the faces of one clip linked sample to sample within a shot when their boxes
 * overlap. A track is one person (nobody swaps places with someone else inside half a second without
 * the boxes parting), so the matcher can judge the track's mean embedding, which is steadier than any
 * one sample of a small, blurred or turning face.
 */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TrackFace extends Box {
  shotId: number;
  timeS: number;
}

/**
 * The tracks of `faces` (indices into it, each track in time order). A face continues the track
 * whose last face is in the same shot, at an earlier sample at most `gapS` before it, and overlaps
 * it most (IoU >= `minIou`); each track takes at most one face per sample. Greedy in time order.
 */
export function faceTracks(faces: readonly TrackFace[], gapS: number, minIou: number): number[][] {
  const order = faces.map((_, i) => i).sort((a, b) => faces[a]!.shotId - faces[b]!.shotId || faces[a]!.timeS - faces[b]!.timeS || a - b);
  const tracks: number[][] = [];
  const open: number[] = []; // indices into `tracks` of the current shot's tracks
  let shot: number | null = null;
  for (let k = 0; k < order.length; ) {
    const t = faces[order[k]!]!;
    if (t.shotId !== shot) {
      shot = t.shotId;
      open.length = 0;
    }
    // The faces of one sample are placed together, so two of them never join one track.
    let end = k;
    while (end < order.length && faces[order[end]!]!.shotId === shot && faces[order[end]!]!.timeS === t.timeS) end++;
    const taken = new Set<number>();
    const sample = order.slice(k, end);
    const pairs: { face: number; track: number; o: number }[] = [];
    for (const f of sample) {
      for (const tr of open) {
        const last = faces[tracks[tr]!.at(-1)!]!;
        if (t.timeS - last.timeS > gapS || last.timeS >= t.timeS) continue;
        const o = iou(last, faces[f]!);
        if (o >= minIou) pairs.push({ face: f, track: tr, o });
      }
    }
    pairs.sort((a, b) => b.o - a.o);
    const placed = new Set<number>();
    for (const p of pairs) {
      if (placed.has(p.face) || taken.has(p.track)) continue;
      tracks[p.track]!.push(p.face);
      placed.add(p.face);
      taken.add(p.track);
    }
    for (const f of sample) {
      if (placed.has(f)) continue;
      open.push(tracks.length);
      tracks.push([f]);
    }
    k = end;
  }
  return tracks;
}
