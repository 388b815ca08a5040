import path from 'node:path';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { clipAbsPath } from './clip-store';
import { folderRange, relativeOnVolume } from './clip-paths';
import { isTeamShareKey } from './volume-store';

/**
 * The reads of where clips are on their volumes (of `clips` joined with `volumes`, written by
 * clips-repository.ts and volume-store.ts): the importer's per-file lookups, the clips under a
 * folder (relink, attach), the drive check's missing files and what a drive that came back resumes.
 */

/** A catalogued file as the importer compares it with what it walks. */
export interface ClipAtPath {
  id: number;
  size_bytes: number;
  mtime_ms: number;
  fingerprint: string | null;
  status: string;
  missing_at: number | null;
}

/** The clip catalogued at a path on a volume (the importer's per-file lookup, compiled once). */
export function clipAtPath(db: CatalogDb, volumeId: number, relPath: string): ClipAtPath | undefined {
  return statement(db, 'SELECT id, size_bytes, mtime_ms, fingerprint, status, missing_at FROM clips WHERE volume_id = ? AND rel_path = ?').get(volumeId, relPath) as ClipAtPath | undefined;
}

/**
 * Clips whose content has this fingerprint and size (a new path may be one of them moved), the missing
 * first. `teamShare`: an offline entry of a team clip (team-share-entries.ts), whose file is not here.
 */
export function clipsWithContent(db: CatalogDb, fingerprint: string, sizeBytes: number): { id: number; path: string; online: boolean; teamShare: boolean }[] {
  const sameContent = statement(
    db,
    `SELECT c.id, c.rel_path, v.mount_path, v.online, v.volume_key FROM clips c JOIN volumes v ON v.id = c.volume_id
     WHERE c.fingerprint = ? AND c.size_bytes = ? ORDER BY c.missing_at IS NULL, c.id`,
  ).all(fingerprint, sizeBytes) as { id: number; rel_path: string; mount_path: string; online: number; volume_key: string }[];
  return sameContent.map((r) => ({ id: r.id, path: clipAbsPath(r), online: r.online === 1, teamShare: isTeamShareKey(r.volume_key) }));
}

/** A clip at or under a folder, with its path on its volume. */
export interface ClipUnder {
  id: number;
  rel_path: string;
  size_bytes: number;
  fingerprint: string | null;
  missing_at: number | null;
}

/** The clips of a volume at or under a path on it ('' : the whole volume), answered from the (volume_id, rel_path) index. */
export function clipsOnVolumeUnder(db: CatalogDb, volumeId: number, rel: string): ClipUnder[] {
  const range = folderRange(rel);
  if (!range) return statement(db, 'SELECT id, rel_path, size_bytes, fingerprint, missing_at FROM clips WHERE volume_id = ?').all(volumeId) as ClipUnder[];
  return statement(db, 'SELECT id, rel_path, size_bytes, fingerprint, missing_at FROM clips WHERE volume_id = ? AND (rel_path = ? OR (rel_path >= ? AND rel_path < ?))').all(
    volumeId,
    rel,
    range.lo,
    range.hi,
  ) as ClipUnder[];
}

/**
 * Catalogued clips at or under an absolute path, on whichever known volume holds it (connected or
 * not; the longest mount path), and the path's place on that volume. Relink reads it; the
 * Library's folder filter is the same condition.
 */
export function clipsUnder(db: CatalogDb, absPath: string): { rel: string; clips: ClipUnder[] } {
  const places = volumesHolding(db, absPath);
  return { rel: places[0]?.rel ?? '', clips: places.flatMap((p) => clipsOnVolumeUnder(db, p.volumeId, p.rel)) };
}

/**
 * Every catalogued clip whose file lies below a folder, in id order: on each volume that holds the
 * folder and on every drive mounted inside it (attaching /media/me takes the cards mounted there too).
 */
export function clipIdsBelow(db: CatalogDb, absFolder: string): number[] {
  const folder = path.resolve(absFolder);
  const ids: number[] = [];
  for (const v of fileVolumes(db)) {
    const rel = relativeOnVolume(v.mount_path, folder);
    if (rel !== null) ids.push(...clipsOnVolumeUnder(db, v.id, rel).flatMap((c) => (c.rel_path === rel ? [] : [c.id])));
    else if (relativeOnVolume(folder, v.mount_path) !== null) ids.push(...clipsOnVolumeUnder(db, v.id, '').map((c) => c.id));
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** Clips of connected drives marked missing, a batch at a time from `afterId` (the drive check looks for their files). */
export function missingClipsOnline(db: CatalogDb, afterId: number, batch: number): { id: number; path: string }[] {
  const missing = statement(
    db,
    `SELECT c.id, v.mount_path, c.rel_path FROM clips c JOIN volumes v ON v.id = c.volume_id
     WHERE c.missing_at IS NOT NULL AND v.online = 1 AND c.source_url IS NULL AND c.id > ? ORDER BY c.id LIMIT ?`,
  ).all(afterId, batch) as { id: number; mount_path: string; rel_path: string }[];
  return missing.map((r) => ({ id: r.id, path: clipAbsPath(r) }));
}

/**
 * Clips present on connected drives, of these volumes or among these clips, with work waiting for
 * their file: unindexed ones, and VFR ones whose rate the background has yet to read (catalog 0064).
 * What a drive or file that came back resumes.
 */
export function clipsToResume(db: CatalogDb, volumeIds: readonly number[], clipIds: readonly number[]): number[] {
  const resumable = statement(
    db,
    `SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id
     WHERE (c.indexed_at IS NULL OR c.rate_unread = 1) AND c.missing_at IS NULL AND c.source_url IS NULL AND v.online = 1
       AND (c.volume_id IN (SELECT value FROM json_each(?)) OR c.id IN (SELECT value FROM json_each(?)))
     ORDER BY c.id`,
  ).all(JSON.stringify(volumeIds), JSON.stringify(clipIds)) as { id: number }[];
  return resumable.map((r) => r.id);
}

/** The volumes files are on, connected or not: not the pseudo-volume of addresses, whose mount path '' would be read as the working folder. */
function fileVolumes(db: CatalogDb): { id: number; mount_path: string }[] {
  return statement(db, "SELECT id, mount_path FROM volumes WHERE mount_path <> ''").all() as { id: number; mount_path: string }[];
}

/** The volumes holding an absolute path (the longest mount path that contains it: several volumes may have been mounted there) and the path on them. */
export function volumesHolding(db: CatalogDb, absPath: string): { volumeId: number; rel: string }[] {
  const matches = fileVolumes(db)
    .map((v) => ({ id: v.id, mount: v.mount_path, rel: relativeOnVolume(v.mount_path, path.resolve(absPath)) }))
    .filter((m): m is { id: number; mount: string; rel: string } => m.rel !== null);
  if (matches.length === 0) return [];
  const longest = Math.max(...matches.map((m) => m.mount.length));
  return matches.filter((m) => m.mount.length === longest).map((m) => ({ volumeId: m.id, rel: m.rel }));
}
