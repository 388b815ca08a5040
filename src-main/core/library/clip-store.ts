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
import { rateFromFps, type ShotPlace } from '../../../src-shared/timecode';
import { markFilterSql, markSummaries } from '../marks/marks-repository';
import { folderRange, joinOnVolume, relativeOnVolume } from './clip-paths';

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
  audio_channels: number | null;
  audio_rate: number | null;
  /** JSON array: channels per audio stream. */
  audio_layout: string | null;
  reel_name: string | null;
  timecode: string | null;
  bit_rate: number | null;
  frame_count: number | null;
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
  c.width, c.height, c.rotation, c.audio_channels, c.audio_rate, c.audio_layout, c.reel_name, c.timecode, c.bit_rate, c.frame_count, c.probed_at, c.shots_at,
  c.thumbs_at, c.created_at, c.updated_at, c.source_url, v.mount_path, v.label AS volume_label, v.online`;

export function clipAbsPath(row: Pick<ClipRow, 'mount_path' | 'rel_path'> & { source_url?: string | null }): string {
  return row.source_url ?? joinOnVolume(row.mount_path, row.rel_path);
}

export function displayStatus(row: Pick<ClipRow, 'online' | 'missing_at' | 'status'>): ClipStatus {
  if (!row.online) return 'offline';
  if (row.missing_at !== null) return 'missing';
  return row.status;
}

export function getClipRow(db: CatalogDb, clipId: number): ClipRow {
  const row = db.prepare(`SELECT ${CLIP_COLUMNS} FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`).get(clipId) as
    | ClipRow
    | undefined;
  if (!row) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
  return row;
}

interface ThumbRow {
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

function thumbsFor(db: CatalogDb, clipIds: readonly number[]): Map<number, ThumbRow[]> {
  const out = new Map<number, ThumbRow[]>();
  if (clipIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT t.clip_id, t.shot_id, t.kind, t.path, t.width, t.height, t.frames, t.time_s, s.idx AS shot_idx
       FROM thumbnails t LEFT JOIN shots s ON s.id = t.shot_id
       WHERE t.clip_id IN (SELECT value FROM json_each(?))
       ORDER BY t.clip_id, s.idx`,
    )
    .all(JSON.stringify(clipIds)) as ThumbRow[];
  for (const r of rows) {
    const list = out.get(r.clip_id) ?? [];
    list.push(r);
    out.set(r.clip_id, list);
  }
  return out;
}

function shotCounts(db: CatalogDb, clipIds: readonly number[]): Map<number, number> {
  if (clipIds.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT clip_id, COUNT(*) AS n FROM shots WHERE clip_id IN (SELECT value FROM json_each(?)) GROUP BY clip_id`)
    .all(JSON.stringify(clipIds)) as { clip_id: number; n: number }[];
  return new Map(rows.map((r) => [r.clip_id, r.n]));
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
    fps: row.fps,
    vfr: row.vfr === null ? null : row.vfr === 1,
    width: row.width,
    height: row.height,
    rotation: row.rotation,
    audioChannels: row.audio_channels,
    timecode: row.timecode,
    rate: row.fps ? rateFromFps(row.fps, row.vfr === 1) : null,
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
      return { sql: `v.online = 1 AND (c.missing_at IS NOT NULL OR c.status IN ('error', 'unsupported'))`, params: [] };
    default:
      return { sql: `${present} AND c.status = ?`, params: [filter] };
  }
}

/** The volume holding an absolute folder (longest mount path that contains it) and the folder's path on it. */
function resolveFolder(db: CatalogDb, folder: string): { volumeIds: number[]; rel: string }[] {
  const vols = db.prepare('SELECT id, mount_path FROM volumes').all() as { id: number; mount_path: string }[];
  const matches = vols
    .map((v) => ({ id: v.id, mount: v.mount_path, rel: relativeOnVolume(v.mount_path, path.resolve(folder)) }))
    .filter((m): m is { id: number; mount: string; rel: string } => m.rel !== null);
  if (matches.length === 0) return [];
  const longest = Math.max(...matches.map((m) => m.mount.length));
  return matches.filter((m) => m.mount.length === longest).map((m) => ({ volumeIds: [m.id], rel: m.rel }));
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
  rating: "CASE (SELECT rating FROM clip_marks m WHERE m.clip_id = c.id) WHEN 'favorite' THEN 0 WHEN 'reject' THEN 2 ELSE 1 END",
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
    const places = resolveFolder(db, args.folder);
    if (places.length === 0) where.push('0');
    else {
      const ors = places.map((p) => {
        const range = folderRange(p.rel);
        params.push(p.volumeIds[0]);
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

export function listClips(db: CatalogDb, args: z.output<typeof listArgsSchema>): ListResult {
  const { whereSql, params } = whereFor(db, args);
  const from = 'FROM clips c JOIN volumes v ON v.id = c.volume_id';
  const total = (db.prepare(`SELECT COUNT(*) AS n ${from} ${whereSql}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT ${CLIP_COLUMNS} ${from} ${whereSql} ORDER BY ${orderSql(args.sort, args.reversed === true)} LIMIT ? OFFSET ?`)
    .all(...params, args.limit, args.offset) as ClipRow[];
  const ids = rows.map((r) => r.id);
  const thumbs = thumbsFor(db, ids);
  const counts = shotCounts(db, ids);
  const marksById = markSummaries(db, ids);
  const c = db
    .prepare(
      `SELECT COUNT(*) AS all_n,
        SUM(v.online = 1 AND c.missing_at IS NULL AND ${INDEXED}) AS indexed,
        SUM(v.online = 1 AND c.missing_at IS NULL AND ${INDEXING}) AS indexing,
        SUM(v.online = 1 AND (c.missing_at IS NOT NULL OR c.status IN ('error', 'unsupported'))) AS problems,
        SUM(v.online = 0) AS offline
       ${from}`,
    )
    .get() as { all_n: number; indexed: number | null; indexing: number | null; problems: number | null; offline: number | null };
  return {
    total,
    offset: args.offset,
    items: rows.map((r) => toSummary(r, thumbs.get(r.id) ?? [], counts.get(r.id) ?? 0, marksById.get(r.id) ?? NO_MARKS)),
    counts: { all: c.all_n, indexed: c.indexed ?? 0, indexing: c.indexing ?? 0, problems: c.problems ?? 0, offline: c.offline ?? 0 },
  };
}

/** Every clip id the Library query matches, in its order (Select all, batch actions). */
export function listClipIds(db: CatalogDb, args: Omit<z.output<typeof listArgsSchema>, 'offset' | 'limit'>): number[] {
  const { whereSql, params } = whereFor(db, args);
  return (
    db.prepare(`SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id ${whereSql} ORDER BY ${orderSql(args.sort, args.reversed === true)}`).all(...params) as { id: number }[]
  ).map((r) => r.id);
}

/** A shot as stored: decoded frame numbers (Out exclusive) and their presentation times. */
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
  return db.prepare(`SELECT ${SHOT_COLUMNS} FROM shots WHERE clip_id = ? ORDER BY idx`).all(clipId) as ShotRow[];
}

/** Shots by id (any clip), in no particular order; ids that are gone are missing. */
export function shotsById(db: CatalogDb, ids: readonly number[]): ShotRow[] {
  return db.prepare(`SELECT ${SHOT_COLUMNS} FROM shots WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as ShotRow[];
}

/** The place of a stored shot, as the frame arithmetic (timecode.ts shotFrames) reads it. */
export function shotPlace(s: ShotRow): ShotPlace {
  return { startS: s.start_s, endS: s.end_s, startFrame: s.start_frame, endFrame: s.end_frame };
}

export function getClipDetail(db: CatalogDb, clipId: number): ClipDetail {
  const row = getClipRow(db, clipId);
  const thumbs = thumbsFor(db, [clipId]).get(clipId) ?? [];
  const shots = shotsOfClip(db, clipId);
  const posterByShot = new Map(thumbs.filter((t) => t.kind === 'poster' && t.shot_id !== null).map((t) => [t.shot_id!, toThumb(t)]));
  return {
    ...toSummary(row, thumbs, shots.length, markSummaries(db, [clipId]).get(clipId) ?? NO_MARKS),
    fingerprint: row.fingerprint,
    bitRate: row.bit_rate,
    probedAt: row.probed_at,
    shots: shots.map(
      (s): Shot => ({
        id: s.id,
        idx: s.idx,
        startS: s.start_s,
        endS: s.end_s,
        startFrame: s.start_frame,
        endFrame: s.end_frame,
        cutScore: s.cut_score,
        transition:
          s.transition_kind !== null && s.transition_start_s !== null && s.transition_end_s !== null
            ? { kind: s.transition_kind, startS: s.transition_start_s, endS: s.transition_end_s }
            : null,
        poster: posterByShot.get(s.id) ?? null,
      }),
    ),
  };
}
