import path from 'node:path';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { float32ToBlob } from '../../../src-main/core/catalog/vector-blob';

/** Rows for search tests, written straight into a real catalog file. */

export const TEST_SPACE: { readonly model: string; readonly region: string } = { model: 'test-model', region: 'asia' };

export function openTestCatalog(dir: string): CatalogDb {
  return openCatalog(path.join(dir, 'catalog.sqlite'));
}

export function insertVolume(db: CatalogDb, mountPath: string, key = mountPath): number {
  return Number(
    db.prepare('INSERT INTO volumes (volume_key, mount_path, label, online, last_seen_at) VALUES (?, ?, ?, 1, ?)').run(key, mountPath, path.basename(mountPath), Date.now())
      .lastInsertRowid,
  );
}

export interface ClipSpec {
  volumeId: number;
  relPath: string;
  durationS?: number | null;
  fps?: number | null;
  width?: number | null;
  height?: number | null;
  mtimeMs?: number;
  createdAt?: number;
  /** The file's real size and fingerprint, for clips the app plays or hands out (it checks both at every open). */
  sizeBytes?: number;
  fingerprint?: string | null;
  /** What the probe says of a real file, for clips the viewer plays (it picks the original or a proxy by these). */
  media?: { container: string | null; videoCodec: string | null; pixFmt: string | null; audioCodec: string | null };
}

/** A clip whose shots and thumbnails are made, in the words of the catalog's version (0045 made `ready` `done`). */
const finishedClipStatus = (db: CatalogDb) => ((db.pragma('user_version', { simple: true }) as number) >= 45 ? 'done' : 'ready');

export function insertClip(db: CatalogDb, c: ClipSpec): number {
  const now = Date.now();
  const id = Number(
    db
      .prepare(
        `INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, fingerprint, mtime_ms, status, duration_s, fps, width, height, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.volumeId, c.relPath, path.posix.basename(c.relPath), c.sizeBytes ?? 1000, c.fingerprint ?? null, c.mtimeMs ?? now, finishedClipStatus(db), c.durationS ?? null, c.fps ?? null, c.width ?? null, c.height ?? null, c.createdAt ?? now, now)
      .lastInsertRowid,
  );
  if (c.media) {
    db.prepare('UPDATE clips SET container = ?, video_codec = ?, audio_codec = ? WHERE id = ?').run(c.media.container, c.media.videoCodec, c.media.audioCodec, id);
    // clips.pix_fmt came with catalog migration 0050.
    if ((db.pragma('user_version', { simple: true }) as number) >= 50) db.prepare('UPDATE clips SET pix_fmt = ? WHERE id = ?').run(c.media.pixFmt, id);
  }
  return id;
}

export function insertShot(db: CatalogDb, clipId: number, idx: number, startS: number, endS: number): number {
  return Number(db.prepare('INSERT INTO shots (clip_id, idx, start_s, end_s) VALUES (?, ?, ?, ?)').run(clipId, idx, startS, endS).lastInsertRowid);
}

export function insertSegment(db: CatalogDb, s: { clipId: number; shotId: number; chunkIdx?: number; startS: number; endS: number; profileId?: string }): number {
  return Number(
    db
      .prepare('INSERT INTO segments (clip_id, shot_id, chunk_idx, start_s, end_s, profile_id) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.clipId, s.shotId, s.chunkIdx ?? 0, s.startS, s.endS, s.profileId ?? 'test-profile').lastInsertRowid,
  );
}

export function putEmbedding(db: CatalogDb, segmentId: number, vector: ArrayLike<number>, space: { model: string; region: string } = TEST_SPACE): void {
  db.prepare(
    `INSERT INTO embeddings (segment_id, dim, vector, model, region, profile_id, created_at) VALUES (?, ?, ?, ?, ?, 'test-profile', ?)
     ON CONFLICT (segment_id) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, model = excluded.model, region = excluded.region, created_at = excluded.created_at`,
  ).run(segmentId, vector.length, float32ToBlob(vector), space.model, space.region, Date.now());
}

export function putServiceTags(db: CatalogDb, segmentId: number, t: { shotSize?: string; cameraMovement?: string; shootingAngle?: string; raw?: unknown }): void {
  db.prepare(
    `INSERT INTO service_tags (segment_id, raw_json, shot_size, camera_movement, shooting_angle, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (segment_id) DO UPDATE SET raw_json = excluded.raw_json, shot_size = excluded.shot_size, camera_movement = excluded.camera_movement, shooting_angle = excluded.shooting_angle`,
  ).run(segmentId, JSON.stringify(t.raw ?? t), t.shotSize ?? null, t.cameraMovement ?? null, t.shootingAngle ?? null, Date.now());
}

export function putLocalTag(db: CatalogDb, shotId: number, category: 'shot_size' | 'camera_movement', value: string, confidence = 0.8): void {
  db.prepare('INSERT OR REPLACE INTO shot_local_tags (shot_id, category, value, confidence) VALUES (?, ?, ?, ?)').run(shotId, category, value, confidence);
}

export function insertPoster(db: CatalogDb, clipId: number, shotId: number | null, relPath: string, timeS: number): void {
  db.prepare(`INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height, time_s) VALUES (?, ?, 'poster', ?, 160, 90, ?)`).run(clipId, shotId, relPath, timeS);
}

/** A deterministic unit-ish vector pointing mostly along axis `axis`, with a little spread. */
export function axisVector(dim: number, axis: number, spread = 0.1, seed = 1): Float32Array {
  const v = new Float32Array(dim);
  let s = seed >>> 0;
  for (let i = 0; i < dim; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = ((s / 2 ** 32) * 2 - 1) * spread;
  }
  v[axis % dim]! += 1;
  return v;
}
