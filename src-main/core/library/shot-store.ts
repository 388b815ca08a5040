import type { Shot } from '../../../src-shared/contract/library';
import type { ShotPlace } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { DetectedShot } from '../media/shot-detector';
import { deleteShotPosters } from './thumbnail-store';

/**
 * The owner of `shots`: a clip's shots as detected (decoded frame numbers, Out exclusive, and
 * their presentation times), their one writer and the reads of them. Segments, embeddings, tags
 * and analysis hang off a shot's id and go with it (foreign keys cascade).
 */
export interface ShotRow {
  id: number;
  clip_id: number;
  idx: number;
  start_s: number;
  end_s: number;
  start_frame: number | null;
  end_frame: number | null;
  cut_score: number | null;
  transition_kind: 'cut' | 'dissolve' | 'fade' | null;
  transition_start_s: number | null;
  transition_end_s: number | null;
}

const SHOT_COLUMNS = 'id, clip_id, idx, start_s, end_s, start_frame, end_frame, cut_score, transition_kind, transition_start_s, transition_end_s';

/** A clip's shots in order. */
export function shotsOfClip(db: CatalogDb, clipId: number): ShotRow[] {
  return statement(db, `SELECT ${SHOT_COLUMNS} FROM shots WHERE clip_id = ? ORDER BY idx`).all(clipId) as ShotRow[];
}

/** Shots by id (any clip), in no particular order; ids that are gone are missing. */
export function shotsById(db: CatalogDb, ids: readonly number[]): ShotRow[] {
  return statement(db, `SELECT ${SHOT_COLUMNS} FROM shots WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as ShotRow[];
}

/** How many shots each clip has (clips without shots are absent). */
export function shotCounts(db: CatalogDb, clipIds: readonly number[]): Map<number, number> {
  if (clipIds.length === 0) return new Map();
  const perClip = statement(db, `SELECT clip_id, COUNT(*) AS n FROM shots WHERE clip_id IN (SELECT value FROM json_each(?)) GROUP BY clip_id`).all(JSON.stringify(clipIds)) as {
    clip_id: number;
    n: number;
  }[];
  return new Map(perClip.map((r) => [r.clip_id, r.n]));
}

/** A stored shot as the contract and the team library name its facts (no id, no picture: the caller's). */
export function shotFacts(s: ShotRow): Omit<Shot, 'id' | 'poster'> {
  return {
    idx: s.idx,
    startS: s.start_s,
    endS: s.end_s,
    startFrame: s.start_frame,
    endFrame: s.end_frame,
    cutScore: s.cut_score,
    transition: s.transition_kind !== null && s.transition_start_s !== null && s.transition_end_s !== null ? { kind: s.transition_kind, startS: s.transition_start_s, endS: s.transition_end_s } : null,
  };
}

/** The place of a stored shot, as the frame arithmetic (timecode.ts shotFrames) reads it. */
export function shotPlace(s: ShotRow): ShotPlace {
  return { startS: s.start_s, endS: s.end_s, startFrame: s.start_frame, endFrame: s.end_frame };
}

/** A shot as stored: frames may be unknown (a clip the service analysed from its URL). */
export type ShotRowInput = Pick<DetectedShot, 'idx' | 'startS' | 'endS'> & {
  startFrame: number | null;
  endFrame: number | null;
  cutScore: number | null;
  transition?: DetectedShot['transition'];
};

/**
 * The one writer of a clip's shot rows: keeps them (and the segments, embeddings and tags hanging
 * off them) when the boundaries are the frames they were; otherwise replaces them, and their
 * per-shot posters go with them. Returns whether they were the same. Call inside the caller's
 * transaction (with the lifecycle's shotsDetected).
 */
export function replaceShots(db: CatalogDb, clipId: number, shots: readonly ShotRowInput[]): boolean {
  const current = statement(db, 'SELECT id, idx, start_frame, end_frame FROM shots WHERE clip_id = ? ORDER BY idx').all(clipId) as {
    id: number;
    idx: number;
    start_frame: number | null;
    end_frame: number | null;
  }[];
  const same = current.length === shots.length && current.every((o, i) => o.start_frame === shots[i]!.startFrame && o.end_frame === shots[i]!.endFrame);
  const t = (s: ShotRowInput) => [s.transition?.kind ?? null, s.transition?.startS ?? null, s.transition?.endS ?? null] as const;
  if (same) {
    const retime = statement(db, 'UPDATE shots SET start_s = ?, end_s = ?, cut_score = ?, transition_kind = ?, transition_start_s = ?, transition_end_s = ? WHERE id = ?');
    shots.forEach((s, i) => retime.run(s.startS, s.endS, s.cutScore, ...t(s), current[i]!.id));
  } else {
    deleteShotPosters(db, clipId);
    deleteShotsOf(db, clipId);
    const addShot = statement(
      db,
      'INSERT INTO shots (clip_id, idx, start_s, end_s, start_frame, end_frame, cut_score, transition_kind, transition_start_s, transition_end_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const s of shots) addShot.run(clipId, s.idx, s.startS, s.endS, s.startFrame, s.endFrame, s.cutScore, ...t(s));
  }
  return same;
}

/** Every shot of the clip, and what hangs off them (its content changed). */
export function deleteShotsOf(db: CatalogDb, clipId: number): void {
  statement(db, 'DELETE FROM shots WHERE clip_id = ?').run(clipId);
}

/**
 * A part of a shot as frames: a segment (the part one embedding stands for) or a search result's
 * range. Frames are decoded frame numbers, half-open [startFrame, endFrame) as the shot's own;
 * startS and endS its presentation times. The frames are null when the shot has none (a clip the
 * service analysed from its URL): its times are all there is.
 */
export interface PartOfShot {
  startS: number;
  endS: number;
  startFrame: number | null;
  endFrame: number | null;
}

/**
 * Where a part of a shot given by its times (a tensor chunk's, rounded to the millisecond, or a
 * team seat's) falls on the shot's frames: a time within half a frame of the shot's start or end
 * is that frame, and the shot's exact time; one inside, the nearest frame counted on the shot's own
 * frames. Migration 0052 did the same to the segments stored before.
 */
export function partOfShot(shot: Pick<ShotRow, 'start_s' | 'end_s' | 'start_frame' | 'end_frame'>, startS: number, endS: number): PartOfShot {
  const { start_frame: a, end_frame: b } = shot;
  if (a === null || b === null || !(shot.end_s > shot.start_s) || b <= a) return { startS, endS, startFrame: null, endFrame: null };
  const at = (t: number) => Math.max(a, Math.min(b, a + Math.round(((t - shot.start_s) * (b - a)) / (shot.end_s - shot.start_s))));
  const startFrame = at(startS);
  const endFrame = Math.max(startFrame + 1, at(endS));
  return { startS: startFrame === a ? shot.start_s : startS, endS: endFrame === b ? shot.end_s : endS, startFrame, endFrame };
}
