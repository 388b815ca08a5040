import path from 'node:path';
import type { z } from 'zod';
import type { ClipDetail, ClipFilter, ClipSort, ClipSummary, FilmstripRef, ListResult, listArgsSchema, Shot } from '../../../src-shared/contract/library';
import { CLIP_SORT_NATURAL } from '../../../src-shared/contract/library';
import { countingOf, rateFromFps } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { markFilterSql, markSummaries, RATING_ORDER_SQL } from '../marks/marks-repository';
import { clipAbsPath, CLIP_COLUMNS, displayStatus, getClipRow, type ClipRow } from './clip-store';
import { volumesHolding } from './clip-place-store';
import { folderRange } from './clip-paths';
import { shotCounts, shotFacts, shotsOfClip } from './shot-store';
import { teamShareNote } from './team-share-entries';
import { thumbnailsOf, toThumb, type ThumbRow } from './thumbnail-store';
import { isTeamShareKey } from './volume-store';

/**
 * The Library's pages of cards (a read model of `clips` with their volumes, thumbnails, shot counts
 * and marks; it writes nothing): the filters, the folder, the name, the marks and the sorts as SQL,
 * a page with its tab counts, every id a query matches, and one clip's detail.
 */


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
        ? isTeamShareKey(row.volume_key)
          ? teamShareNote(row.volume_label ?? row.mount_path, row.rel_path)
          : `volume "${row.volume_label ?? row.mount_path}" is not connected`
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
  const marks = markFilterSql({ rating: args.rating, keyword: args.keyword, hasRanges: args.hasRanges });
  where.push(...marks.sql);
  params.push(...marks.params);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return { whereSql, params };
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
