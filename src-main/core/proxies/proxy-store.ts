import type { ProxyPolicy } from '../../../src-shared/contract/settings';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/** A clip's viewing proxy as catalogued; `file` is relative to the cache folder. */
export interface ProxyRow {
  clip_id: number;
  file: string;
  fingerprint: string | null;
  bytes: number;
  frames: number;
  made_at: number;
  used_at: number;
}

/** The one owner of `proxies`: every write of the table is here. */
export function proxyOf(db: CatalogDb, clipId: number): ProxyRow | null {
  return (statement(db, 'SELECT * FROM proxies WHERE clip_id = ?').get(clipId) as ProxyRow | undefined) ?? null;
}

export function recordProxy(db: CatalogDb, row: Omit<ProxyRow, 'used_at'>): void {
  statement(
    db,
    `INSERT INTO proxies (clip_id, file, fingerprint, bytes, frames, made_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (clip_id) DO UPDATE SET file = excluded.file, fingerprint = excluded.fingerprint, bytes = excluded.bytes,
       frames = excluded.frames, made_at = excluded.made_at, used_at = excluded.used_at`,
  ).run(row.clip_id, row.file, row.fingerprint, row.bytes, row.frames, row.made_at, row.made_at);
}

/**
 * Played now: the last to be evicted. A player sends a range request every few hundred
 * milliseconds; a minute is fine enough for least-recently-used, so at most one write a minute.
 */
export function touchProxy(db: CatalogDb, clipId: number, at: number): void {
  statement(db, 'UPDATE proxies SET used_at = ? WHERE clip_id = ? AND used_at < ?').run(at, clipId, at - 60_000);
}

export function forgetProxy(db: CatalogDb, clipId: number): void {
  statement(db, 'DELETE FROM proxies WHERE clip_id = ?').run(clipId);
}

/** Every proxy, least recently played first (the storage budget's eviction order). */
export function proxiesByUse(db: CatalogDb): ProxyRow[] {
  return statement(db, 'SELECT * FROM proxies ORDER BY used_at, clip_id').all() as ProxyRow[];
}

export function proxyBytes(db: CatalogDb): { count: number; bytes: number } {
  return statement(db, 'SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes FROM proxies').get() as { count: number; bytes: number };
}

/**
 * Footage whose analysis decode is over and that has no proxy made from its current content
 * (one clip with `onlyClip`), with what decides whether it wants one (proxy-backfill.ts).
 */
export function clipsWithoutProxy(db: CatalogDb, onlyClip: number | null) {
  return statement(
    db,
    `SELECT c.id, c.container, c.video_codec, c.pix_fmt, c.audio_codec, v.mount_path, v.proxy_policy
     FROM clips c JOIN volumes v ON v.id = c.volume_id
     LEFT JOIN proxies p ON p.clip_id = c.id AND p.fingerprint IS c.fingerprint
     WHERE (? IS NULL OR c.id = ?) AND c.source_url IS NULL AND c.status = 'done' AND c.shots_at IS NOT NULL AND p.clip_id IS NULL
     ORDER BY c.id`,
  ).all(onlyClip, onlyClip) as { id: number; container: string | null; video_codec: string | null; pix_fmt: string | null; audio_codec: string | null; mount_path: string; proxy_policy: ProxyPolicy | null }[];
}
