import path from 'node:path';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import type {
  ClipDetail,
  ClipFilter,
  ClipSort,
  ClipStatus,
  ClipSummary,
  FilmstripRef,
  ListResult,
  listArgsSchema,
  Shot,
  ThumbRef,
} from '../../../src-shared/contract/library';
import { CLIP_SORT_NATURAL } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { countingOf, rateFromFps } from '../../../src-shared/timecode';
import { markFilterSql, markSummaries, RATING_ORDER_SQL } from '../marks/marks-repository';
import { folderRange, joinOnVolume, relativeOnVolume } from './clip-paths';
import { shotCounts, shotFacts, shotsOfClip } from './shot-store';
import { thumbnailsOf, type ThumbRow } from './thumbnail-store';

/**
 * The reads of `clips` (with their volumes): a clip's row, where its file is, the Library's pages
 * of cards, and the named reads the importer, relink and the drive check make. Its one writer is
 * clips-repository.ts.
 */

/** A clip row joined with its volume, as stored. */
export interface ClipRow {
  id: number;
  volume_id: number;
  rel_path: string;
  file_name: string;
  size_bytes: number;
  mtime_ms: number;
  fingerprint: string | null;
  status: 'pending' | 'probed' | 'done' | 'error' | 'unsupported';
  status_reason: string | null;
  error_kind: string | null;
  missing_at: number | null;
  container: string | null;
  video_codec: string | null;
  audio_codec: string | null;
  duration_s: number | null;
  fps: number | null;
  vfr: number | null;
  width: number | null;
  height: number | null;
  rotation: number | null;
  /** Sample aspect ratio as displayed (null: no picture, or not probed yet). */
  sar: number | null;
  audio_channels: number | null;
  audio_rate: number | null;
  /** JSON array: channels per audio stream. */
  audio_layout: string | null;
  reel_name: string | null;
  timecode: string | null;
  bit_rate: number | null;
  frame_count: number | null;
  /** Where the picture ends when the file decodes short of its duration; null when whole. */
  decoded_s: number | null;
  /** The picture's pixel format as probed (whether the player can show it: proxies/native-playback.ts). */
  pix_fmt: string | null;
  probed_at: number | null;
  shots_at: number | null;
  thumbs_at: number | null;
  created_at: number;
  updated_at: number;
  /** Set for a clip that lives at a URL (Add by URL): its "path" is the URL. */
  source_url: string | null;
  mount_path: string;
  volume_label: string | null;
  online: number;
}

const CLIP_COLUMNS = `c.id, c.volume_id, c.rel_path, c.file_name, c.size_bytes, c.mtime_ms, c.fingerprint, c.status,
  c.status_reason, c.error_kind, c.missing_at, c.container, c.video_codec, c.audio_codec, c.duration_s, c.fps, c.vfr,
  c.width, c.height, c.rotation, c.sar, c.audio_channels, c.audio_rate, c.audio_layout, c.reel_name, c.timecode, c.bit_rate, c.frame_count, c.decoded_s, c.pix_fmt, c.probed_at, c.shots_at,
  c.thumbs_at, c.created_at, c.updated_at, c.source_url, v.mount_path, v.label AS volume_label, v.online`;

/** Where a clip's file is: its path on its volume's mount now, or the address of a clip added by URL. The one place a path is made from the catalog. */
export function clipAbsPath(row: Pick<ClipRow, 'mount_path' | 'rel_path'> & { source_url?: string | null }): string {
  return row.source_url ?? joinOnVolume(row.mount_path, row.rel_path);
}

/**
 * Channels per audio stream, as the probe stored them (clips-repository writes the column as a JSON
 * array; a catalog from before migration 0022 has none: the first stream's count).
 */
function audioLayoutOf(row: Pick<ClipRow, 'audio_layout' | 'audio_channels'>): number[] {
  if (row.audio_layout) {
    const parsed = JSON.parse(row.audio_layout) as unknown;
    if (Array.isArray(parsed)) return parsed.filter((n): n is number => typeof n === 'number' && n > 0);
  }
  return row.audio_channels ? [row.audio_channels] : [];
}

/** What a hand-off file says of a clip (export/build-export-document.ts): its file, its time base and its picture and sound. */
export interface ClipForExport {
  id: number;
  fileName: string;
  /** Its path on its volume's mount now. */
  path: string;
  /** Set for a clip added by URL: no editing application can take it. */
  sourceUrl: string | null;
  fps: number | null;
  vfr: boolean;
  durationS: number | null;
  frameCount: number | null;
  timecode: string | null;
  width: number | null;
  height: number | null;
  reel: string | null;
  /** Channels per audio stream. */
  audioLayout: number[];
  audioRate: number | null;
}

export function clipForExport(db: CatalogDb, clipId: number): ClipForExport {
  const clipExportFacts = statement(
    db,
    `SELECT c.id, c.file_name, c.rel_path, c.source_url, c.fps, c.vfr, c.duration_s, c.frame_count, c.timecode, c.width, c.height,
            c.reel_name, c.audio_layout, c.audio_channels, c.audio_rate, v.mount_path
       FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`,
  ).get(clipId) as
    | (Pick<ClipRow, 'id' | 'file_name' | 'rel_path' | 'source_url' | 'fps' | 'vfr' | 'duration_s' | 'frame_count' | 'timecode' | 'width' | 'height' | 'reel_name' | 'audio_layout' | 'audio_channels' | 'audio_rate' | 'mount_path'>)
    | undefined;
  if (!clipExportFacts) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
  const r = clipExportFacts;
  return {
    id: r.id,
    fileName: r.file_name,
    path: clipAbsPath(r),
    sourceUrl: r.source_url,
    fps: r.fps,
    vfr: r.vfr === 1,
    durationS: r.duration_s,
    frameCount: r.frame_count,
    timecode: r.timecode,
    width: r.width,
    height: r.height,
    reel: r.reel_name,
    audioLayout: audioLayoutOf(r),
    audioRate: r.audio_rate,
  };
}

export function displayStatus(row: Pick<ClipRow, 'online' | 'missing_at' | 'status'>): ClipStatus {
  if (!row.online) return 'offline';
  if (row.missing_at !== null) return 'missing';
  return row.status;
}

export function getClipRow(db: CatalogDb, clipId: number): ClipRow {
  const clipWithVolume = statement(db, `SELECT ${CLIP_COLUMNS} FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`).get(clipId) as ClipRow | undefined;
  if (!clipWithVolume) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
  return clipWithVolume;
}

/** A clip's file as catalogued: everything a hand-over of it checks (playback, Open, Reveal, drag, a collection upload, a remote clip's stream). */
export interface ClipPath {
  clipId: number;
  fileName: string;
  /** Its path on its volume's mount now; for a clip added by URL, its address. */
  path: string;
  sourceUrl: string | null;
  /** Its drive is connected. */
  online: boolean;
  volumeLabel: string;
  /** Marked missing: the file was not at its path when last looked for. */
  missing: boolean;
  sizeBytes: number;
  fingerprint: string | null;
  container: string | null;
  durationS: number | null;
}

/** "Clip id -> its file": where the catalog says the clip is (null: no such clip). Read at every range request of a player, so compiled once. */
export function pathOf(db: CatalogDb, clipId: number): ClipPath | null {
  const clipFile = statement(
    db,
    `SELECT c.id, c.file_name, c.rel_path, c.source_url, c.missing_at, c.size_bytes, c.fingerprint, c.container, c.duration_s, v.mount_path, v.label, v.online
     FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`,
  ).get(clipId) as
    | { id: number; file_name: string; rel_path: string; source_url: string | null; missing_at: number | null; size_bytes: number; fingerprint: string | null; container: string | null; duration_s: number | null; mount_path: string; label: string | null; online: number }
    | undefined;
  if (!clipFile) return null;
  return {
    clipId: clipFile.id,
    fileName: clipFile.file_name,
    path: clipAbsPath(clipFile),
    sourceUrl: clipFile.source_url,
    online: clipFile.online === 1,
    volumeLabel: clipFile.label ?? clipFile.mount_path,
    missing: clipFile.missing_at !== null,
    sizeBytes: clipFile.size_bytes,
    fingerprint: clipFile.fingerprint,
    container: clipFile.container,
    durationS: clipFile.duration_s,
  };
}

/** The clip's fingerprint now (undefined: the clip is gone): a stage compares it with the one it read before writing its results. */
export function fingerprintOf(db: CatalogDb, clipId: number): string | null | undefined {
  return (statement(db, 'SELECT fingerprint FROM clips WHERE id = ?').get(clipId) as { fingerprint: string | null } | undefined)?.fingerprint;
}

/**
 * Throws if the clip's file changed (a re-import reset it) while a stage was working on it, so a
 * stage never writes results computed from the previous content. Call inside the write's transaction.
 */
export function assertSameFile(db: CatalogDb, clipId: number, fingerprint: string | null): void {
  const cur = fingerprintOf(db, clipId);
  if (cur === undefined) throw new AppError('not_found', `clip ${clipId} was removed while it was processed`);
  // A transient state, not a verdict: the stage reads the file again (a re-import that found the
  // file changed resets the row while its probe may still be running).
  if (cur !== fingerprint) throw new AppError('io', `clip ${clipId} changed on disk while it was processed`);
}

/** The file names of the clips that exist among `ids`. */
export function clipNames(db: CatalogDb, ids: readonly number[]): Map<number, string> {
  const named = statement(db, 'SELECT id, file_name FROM clips WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(ids)) as { id: number; file_name: string }[];
  return new Map(named.map((r) => [r.id, r.file_name]));
}

/** The clip that lives at an address (Add by URL), if it was added before. */
export function clipIdAtUrl(db: CatalogDb, url: string): number | null {
  return (statement(db, 'SELECT id FROM clips WHERE source_url = ?').get(url) as { id: number } | undefined)?.id ?? null;
}

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

/** Clips whose content has this fingerprint and size (a new path may be one of them moved), the missing first. */
export function clipsWithContent(db: CatalogDb, fingerprint: string, sizeBytes: number): { id: number; path: string; online: boolean }[] {
  const sameContent = statement(
    db,
    `SELECT c.id, c.rel_path, v.mount_path, v.online FROM clips c JOIN volumes v ON v.id = c.volume_id
     WHERE c.fingerprint = ? AND c.size_bytes = ? ORDER BY c.missing_at IS NULL, c.id`,
  ).all(fingerprint, sizeBytes) as { id: number; rel_path: string; mount_path: string; online: number }[];
  return sameContent.map((r) => ({ id: r.id, path: clipAbsPath(r), online: r.online === 1 }));
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

/** Unindexed clips present on connected drives, of these volumes or among these clips: what a drive or file that came back resumes. */
export function clipsToResume(db: CatalogDb, volumeIds: readonly number[], clipIds: readonly number[]): number[] {
  const resumable = statement(
    db,
    `SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id
     WHERE c.indexed_at IS NULL AND c.missing_at IS NULL AND c.source_url IS NULL AND v.online = 1
       AND (c.volume_id IN (SELECT value FROM json_each(?)) OR c.id IN (SELECT value FROM json_each(?)))
     ORDER BY c.id`,
  ).all(JSON.stringify(volumeIds), JSON.stringify(clipIds)) as { id: number }[];
  return resumable.map((r) => r.id);
}

const toThumb = (t: ThumbRow): ThumbRef => ({ path: t.path, width: t.width, height: t.height });

type Marks = ReturnType<typeof markSummaries> extends Map<number, infer V> ? V : never;
const NO_MARKS: Marks = { rating: null, keywords: [], rangeCount: 0 };

function toSummary(row: ClipRow, thumbs: ThumbRow[], shotCount: number, marks: Marks): ClipSummary {
  const abs = clipAbsPath(row);
  const posters = thumbs.filter((t) => t.kind === 'poster');
  const strip = thumbs.find((t) => t.kind === 'filmstrip');
  const filmstrip: FilmstripRef | null = strip ? { ...toThumb(strip), frames: strip.frames ?? 1 } : null;
  return {
    id: row.id,
    name: row.file_name,
    path: abs,
    folder: row.source_url ? '' : path.dirname(abs),
    sourceUrl: row.source_url,
    volumeId: row.volume_id,
    volumeLabel: row.volume_label ?? row.mount_path,
    status: displayStatus(row),
    statusReason:
      !row.online
        ? `volume "${row.volume_label ?? row.mount_path}" is not connected`
        : row.missing_at !== null
          ? 'file is no longer at this path: reconnect, re-import its folder or relink'
          : row.status_reason,
    errorKind: row.error_kind,
    sizeBytes: row.size_bytes,
    mtimeMs: row.mtime_ms,
    container: row.container,
    videoCodec: row.video_codec,
    audioCodec: row.audio_codec,
    durationS: row.duration_s,
    frameCount: row.frame_count,
    decodedS: row.decoded_s,
    fps: row.fps,
    vfr: row.vfr === null ? null : row.vfr === 1,
    width: row.width,
    height: row.height,
    rotation: row.rotation,
    audioChannels: row.audio_channels,
    timecode: row.timecode,
    rate: row.fps ? rateFromFps(row.fps, row.vfr === 1) : null,
    conformed: row.fps ? countingOf(row.fps, row.vfr === 1).conformed : null,
    rating: marks.rating,
    keywords: marks.keywords,
    rangeCount: marks.rangeCount,
    // The pipeline's fold is added by the library service (library-handlers), which knows it.
    indexing: null,
    shotCount,
    poster: posters[0] ? toThumb(posters[0]) : null,
    filmstrip,
    updatedAt: row.updated_at,
  };
}

/** Searchable: the index stage stamped it (clips-repository's `indexed` event), as the Jobs view's "Indexed". */
const INDEXED = `c.indexed_at IS NOT NULL`;
/** Footage still on its way there (a clip that failed reading is a problem, not this). */
const INDEXING = `c.indexed_at IS NULL AND c.status IN ('pending', 'probed', 'done')`;
/** What the editor must look at: gone, unreadable, or read only in part (still searchable for that part). */
const PROBLEM = `(c.missing_at IS NOT NULL OR c.status IN ('error', 'unsupported') OR c.decoded_s IS NOT NULL)`;

/** SQL condition and parameters for a Library filter. */
function filterSql(filter: ClipFilter): { sql: string; params: unknown[] } {
  const present = 'v.online = 1 AND c.missing_at IS NULL';
  switch (filter) {
    case 'offline':
      return { sql: 'v.online = 0', params: [] };
    case 'missing':
      return { sql: 'v.online = 1 AND c.missing_at IS NOT NULL', params: [] };
    case 'indexed':
      return { sql: `${present} AND ${INDEXED}`, params: [] };
    case 'indexing':
      return { sql: `${present} AND ${INDEXING}`, params: [] };
    case 'problems':
      return { sql: `v.online = 1 AND ${PROBLEM}`, params: [] };
    default:
      return { sql: `${present} AND c.status = ?`, params: [filter] };
  }
}

/** The volumes files are on, connected or not: not the pseudo-volume of addresses, whose mount path '' would be read as the working folder. */
function fileVolumes(db: CatalogDb): { id: number; mount_path: string }[] {
  return statement(db, "SELECT id, mount_path FROM volumes WHERE mount_path <> ''").all() as { id: number; mount_path: string }[];
}

/** The volumes holding an absolute path (the longest mount path that contains it: several volumes may have been mounted there) and the path on them. */
function volumesHolding(db: CatalogDb, absPath: string): { volumeId: number; rel: string }[] {
  const matches = fileVolumes(db)
    .map((v) => ({ id: v.id, mount: v.mount_path, rel: relativeOnVolume(v.mount_path, path.resolve(absPath)) }))
    .filter((m): m is { id: number; mount: string; rel: string } => m.rel !== null);
  if (matches.length === 0) return [];
  const longest = Math.max(...matches.map((m) => m.mount.length));
  return matches.filter((m) => m.mount.length === longest).map((m) => ({ volumeId: m.id, rel: m.rel }));
}

/** Each sort's key; its natural direction is the contract's CLIP_SORT_NATURAL, `reversed` flips it. */
const ORDER_BY: Record<ClipSort, string> = {
  path: 'v.mount_path || c.rel_path',
  name: 'c.file_name COLLATE NOCASE',
  added: 'c.id',
  duration: 'c.duration_s',
  resolution: 'c.width * c.height',
  fps: 'c.fps',
  codec: 'c.video_codec',
  timecode: 'c.timecode',
  date: 'c.mtime_ms',
  rating: RATING_ORDER_SQL,
};

function orderSql(sort: ClipSort, reversed: boolean): string {
  const o = { key: ORDER_BY[sort], dir: CLIP_SORT_NATURAL[sort] === 'asc' ? 'ASC' : 'DESC' };
  const dir = reversed ? (o.dir === 'ASC' ? 'DESC' : 'ASC') : o.dir;
  // Unknown values (not probed yet) last either way; the id keeps pages stable.
  return `${o.key} IS NULL, ${o.key} ${dir}, c.id ${dir}`;
}

/** The WHERE clause of a Library query (filters, folder, name, marks): shared by the list and its ids. */
function whereFor(db: CatalogDb, args: Omit<z.output<typeof listArgsSchema>, 'offset' | 'limit'>): { whereSql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.status) {
    const f = filterSql(args.status);
    where.push(`(${f.sql})`);
    params.push(...f.params);
  }
  if (args.volumeId !== undefined) {
    where.push('c.volume_id = ?');
    params.push(args.volumeId);
  }
  if (args.query) {
    where.push(`c.file_name LIKE ? ESCAPE '\\'`);
    params.push(`%${args.query.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  }
  if (args.folder) {
    const places = volumesHolding(db, args.folder);
    if (places.length === 0) where.push('0');
    else {
      const ors = places.map((p) => {
        const range = folderRange(p.rel);
        params.push(p.volumeId);
        if (!range) return '(c.volume_id = ?)';
        params.push(range.lo, range.hi);
        return '(c.volume_id = ? AND c.rel_path >= ? AND c.rel_path < ?)';
      });
      where.push(`(${ors.join(' OR ')})`);
    }
  }
  const marks = markFilterSql({ rating: args.rating, keyword: args.keyword });
  where.push(...marks.sql);
  params.push(...marks.params);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return { whereSql, params };
}

/** Clips in a catalog, all of them (what a backup is said to hold). */
export function clipCount(db: CatalogDb): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM clips').get() as { n: number }).n;
}

export function listClips(db: CatalogDb, args: z.output<typeof listArgsSchema>): ListResult {
  const { whereSql, params } = whereFor(db, args);
  const from = 'FROM clips c JOIN volumes v ON v.id = c.volume_id';
  const total = (db.prepare(`SELECT COUNT(*) AS n ${from} ${whereSql}`).get(...params) as { n: number }).n;
  const page = db
    .prepare(`SELECT ${CLIP_COLUMNS} ${from} ${whereSql} ORDER BY ${orderSql(args.sort, args.reversed === true)} LIMIT ? OFFSET ?`)
    .all(...params, args.limit, args.offset) as ClipRow[];
  const ids = page.map((r) => r.id);
  const thumbs = thumbnailsOf(db, ids);
  const counts = shotCounts(db, ids);
  const marksById = markSummaries(db, ids);
  const tabCounts = statement(
    db,
    `SELECT COUNT(*) AS all_n,
      SUM(v.online = 1 AND c.missing_at IS NULL AND ${INDEXED}) AS indexed,
      SUM(v.online = 1 AND c.missing_at IS NULL AND ${INDEXING}) AS indexing,
      SUM(v.online = 1 AND ${PROBLEM}) AS problems,
      SUM(v.online = 0) AS offline
     ${from}`,
  ).get() as { all_n: number; indexed: number | null; indexing: number | null; problems: number | null; offline: number | null };
  return {
    total,
    offset: args.offset,
    items: page.map((r) => toSummary(r, thumbs.get(r.id) ?? [], counts.get(r.id) ?? 0, marksById.get(r.id) ?? NO_MARKS)),
    counts: { all: tabCounts.all_n, indexed: tabCounts.indexed ?? 0, indexing: tabCounts.indexing ?? 0, problems: tabCounts.problems ?? 0, offline: tabCounts.offline ?? 0 },
  };
}

/** Every clip id the Library query matches, in its order (Select all, batch actions). */
export function listClipIds(db: CatalogDb, args: Omit<z.output<typeof listArgsSchema>, 'offset' | 'limit'>): number[] {
  const { whereSql, params } = whereFor(db, args);
  return (
    db.prepare(`SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id ${whereSql} ORDER BY ${orderSql(args.sort, args.reversed === true)}`).all(...params) as { id: number }[]
  ).map((r) => r.id);
}

export function getClipDetail(db: CatalogDb, clipId: number): ClipDetail {
  const row = getClipRow(db, clipId);
  const thumbs = thumbnailsOf(db, [clipId]).get(clipId) ?? [];
  const shots = shotsOfClip(db, clipId);
  const posterByShot = new Map(thumbs.filter((t) => t.kind === 'poster' && t.shot_id !== null).map((t) => [t.shot_id!, toThumb(t)]));
  return {
    ...toSummary(row, thumbs, shots.length, markSummaries(db, [clipId]).get(clipId) ?? NO_MARKS),
    fingerprint: row.fingerprint,
    bitRate: row.bit_rate,
    probedAt: row.probed_at,
    shots: shots.map(
      (s): Shot => ({ id: s.id, ...shotFacts(s), poster: posterByShot.get(s.id) ?? null }),
    ),
  };
}
