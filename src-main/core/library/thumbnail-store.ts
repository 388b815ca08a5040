import type { ThumbRef } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/**
 * The owner of `thumbnails`: a clip's posters (one per shot, or the preview lane's one keyframe
 * before shots exist) and its filmstrip sprite, as paths relative to the thumbnail cache. The
 * files are written by the media stages; this is the one writer of their rows.
 */
export interface ThumbRow {
  clip_id: number;
  shot_id: number | null;
  kind: 'poster' | 'filmstrip';
  path: string;
  width: number | null;
  height: number | null;
  frames: number | null;
  time_s: number | null;
  shot_idx: number | null;
}

/** A thumbnail as the contract gives it. */
export const toThumb = (t: ThumbRow): ThumbRef => ({ path: t.path, width: t.width, height: t.height });

/** An image the decode wrote, relative to the thumbnail cache. */
export interface ThumbImage {
  path: string;
  width: number;
  height: number;
}

/** A clip's new set: per-shot posters (shotId null: a clip-level poster) and the filmstrip. */
export interface ThumbnailSet {
  posters: ReadonlyArray<ThumbImage & { shotId: number | null; timeS: number }>;
  strip: (ThumbImage & { frames: number }) | null;
}

/** The thumbnails of each clip, shot posters in shot order (the Library's cards and a clip's detail). */
export function thumbnailsOf(db: CatalogDb, clipIds: readonly number[]): Map<number, ThumbRow[]> {
  const out = new Map<number, ThumbRow[]>();
  if (clipIds.length === 0) return out;
  const thumbs = statement(
    db,
    `SELECT t.clip_id, t.shot_id, t.kind, t.path, t.width, t.height, t.frames, t.time_s, s.idx AS shot_idx
     FROM thumbnails t LEFT JOIN shots s ON s.id = t.shot_id
     WHERE t.clip_id IN (SELECT value FROM json_each(?))
     ORDER BY t.clip_id, s.idx`,
  ).all(JSON.stringify(clipIds)) as ThumbRow[];
  for (const r of thumbs) {
    const list = out.get(r.clip_id) ?? [];
    list.push(r);
    out.set(r.clip_id, list);
  }
  return out;
}

/** The clip's card picture: the preview lane's poster while it is there, else its first shot's. */
export function posterPathOf(db: CatalogDb, clipId: number): string | null {
  const poster = statement(db, "SELECT path FROM thumbnails WHERE clip_id = ? AND kind = 'poster' ORDER BY shot_id IS NOT NULL, id LIMIT 1").get(clipId) as { path: string } | undefined;
  return poster?.path ?? null;
}

export function hasPoster(db: CatalogDb, clipId: number): boolean {
  return statement(db, "SELECT 1 FROM thumbnails WHERE clip_id = ? AND kind = 'poster' LIMIT 1").get(clipId) !== undefined;
}

/** The preview lane's keyframe poster: one clip-level poster, until the analysis decode replaces the set. */
export function addClipPoster(db: CatalogDb, clipId: number, img: ThumbImage & { timeS: number | null }): void {
  statement(db, "INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height, frames, time_s) VALUES (?, NULL, 'poster', ?, ?, ?, NULL, ?)").run(
    clipId,
    img.path,
    img.width,
    img.height,
    img.timeS,
  );
}

/** The clip's rows become `set` (inside the caller's transaction, with the lifecycle's thumbnailsMade). */
export function replaceThumbnails(db: CatalogDb, clipId: number, set: ThumbnailSet): void {
  deleteThumbnailsOf(db, clipId);
  const addThumb = statement(db, 'INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height, frames, time_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  for (const p of set.posters) addThumb.run(clipId, p.shotId, 'poster', p.path, p.width, p.height, null, p.timeS);
  if (set.strip) addThumb.run(clipId, null, 'filmstrip', set.strip.path, set.strip.width, set.strip.height, set.strip.frames, null);
}

/** Every row of the clip (its content changed: the pictures are of another file). */
export function deleteThumbnailsOf(db: CatalogDb, clipId: number): void {
  statement(db, 'DELETE FROM thumbnails WHERE clip_id = ?').run(clipId);
}

/**
 * The per-shot posters, which go with their shots; clip-level images (the preview lane's poster,
 * the filmstrip) stay, so the card keeps its picture until the analysis stage replaces them.
 */
export function deleteShotPosters(db: CatalogDb, clipId: number): void {
  statement(db, 'DELETE FROM thumbnails WHERE clip_id = ? AND shot_id IS NOT NULL').run(clipId);
}
