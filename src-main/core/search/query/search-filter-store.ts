import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import { FACET_FIELDS, type FacetField, type SearchFilters, type TagSelection } from '../../../../src-shared/contract/search';
import type { CatalogDb } from '../../catalog/open-catalog';
import { folderRange, relativeOnVolume } from '../../library/clip-paths';
import { markFilterSql } from '../../marks/marks-repository';
import { canonicalTag } from '../../tags/tag-vocabulary';
import type { EmbeddingSpace } from '../index/embedding-space';
import { facetValuesSql, type TagSourceChoice } from './tag-resolution-store';

/** A piece of a WHERE clause with its values: the SQL holds only placeholders and column names. */
interface SqlPart {
  sql: string;
  params: unknown[];
}

/** True when the filters narrow anything (an empty tag list narrows nothing). */
export function hasFilters(f: SearchFilters): boolean {
  const t = f.tags;
  const picks = (sel: TagSelection | undefined) => !!sel && FACET_FIELDS.some((k) => (sel[k]?.length ?? 0) > 0);
  const d = f.durationS;
  const date = f.date;
  return (
    picks(t) ||
    picks(t?.exclude) ||
    (!!d && (d.min !== undefined || d.max !== undefined)) ||
    f.minHeight !== undefined ||
    f.folder !== undefined ||
    (!!date && (date.from !== undefined || date.to !== undefined)) ||
    (f.clipIds?.length ?? 0) > 0 ||
    f.rating !== undefined ||
    f.keyword !== undefined
  );
}

function placeholders(n: number): string {
  return new Array<string>(n).fill('?').join(', ');
}

/** Segment `s` has (or, `negate`, has not) one of `values` in `field`. */
function tagCondition(field: FacetField, values: readonly string[], source: TagSourceChoice, negate: boolean): SqlPart {
  // Both tables store vocabulary ids; a filter may name a value in any spelling ("CU", "close-up").
  const wanted = [...new Set(values.map((v) => (field === 'people' ? v : canonicalTag(field, v))).filter((v) => v !== ''))];
  if (wanted.length === 0) return { sql: negate ? '1' : '0', params: [] };
  // IN (subquery) is computed once into a lookup, instead of one correlated probe per segment.
  return { sql: `s.id ${negate ? 'NOT IN' : 'IN'} (SELECT segment_id FROM (${facetValuesSql(field, source)}) WHERE value IN (${placeholders(wanted.length)}))`, params: wanted };
}

/** Conditions on segment `s` for the tag filters ('1' when none): wanted values, then exclusions. */
function tagConditions(f: SearchFilters): SqlPart {
  const where: string[] = [];
  const params: unknown[] = [];
  const t = f.tags;
  if (t) {
    for (const [sel, negate] of [[t, false], [t.exclude, true]] as const) {
      for (const field of FACET_FIELDS) {
        const values = sel?.[field];
        if (!values?.length) continue;
        const part = tagCondition(field, values, t.source, negate);
        where.push(part.sql);
        params.push(...part.params);
      }
    }
  }
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

/**
 * How many filter shapes keep their compiled statement. A filter's SQL changes with its shape (which
 * filters, how many values, how many volumes a folder spans), not with its values, so an editor
 * refining a search reuses it; the least recently used shape goes first.
 */
const SHAPES_KEPT = 32;

/** A clip as the filter bar's facets describe it. */
export interface SearchableClip {
  mount_path: string;
  rel_path: string;
  duration_s: number | null;
  height: number | null;
  mtime_ms: number;
  created_at: number;
}

/**
 * The filter bar's SQL: search's filters as WHERE clauses over clips `c` and segments `s` (tags
 * resolved by tag-resolution-store.ts, marks by the marks owner's condition), and the facets that
 * offer them. A read model: it writes nothing. Every value is a placeholder; column names come
 * from the constants here and in tag-resolution-store.ts.
 */
export function createSearchFilterStore(db: CatalogDb) {
  const q = {
    volumes: db.prepare('SELECT id, mount_path FROM volumes'),
    searchableClips: db.prepare(
      `SELECT v.mount_path, c.rel_path, c.duration_s, c.height, c.mtime_ms, c.created_at
       FROM clips c JOIN volumes v ON v.id = c.volume_id
       WHERE c.id IN (SELECT DISTINCT s.clip_id FROM segments s JOIN embeddings e ON e.segment_id = s.id AND e.model = ? AND e.region = ?)`,
    ),
  };
  const shapes = new Map<string, Statement>();
  /** The statement of a filter shape or facet, compiled the first time it is asked for. */
  function compiled(sql: string): Statement {
    let stmt = shapes.get(sql);
    if (stmt) shapes.delete(sql);
    else stmt = db.prepare(sql);
    shapes.set(sql, stmt);
    if (shapes.size > SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
    return stmt;
  }

  /**
   * Clips under an absolute folder: the folder may lie inside a volume (a range of rel_path on it,
   * answered from the (volume_id, rel_path) index) or above a volume's mount point (all its clips).
   */
  function folderCondition(folder: string): SqlPart {
    const abs = path.resolve(folder);
    const vols = q.volumes.all() as { id: number; mount_path: string }[];
    const ors: string[] = [];
    const params: unknown[] = [];
    const inside = vols
      .map((v) => ({ ...v, rel: relativeOnVolume(v.mount_path, abs) }))
      .filter((v): v is { id: number; mount_path: string; rel: string } => v.rel !== null);
    // Nested mounts: the folder belongs to the deepest mount that contains it.
    const deepest = inside.length ? Math.max(...inside.map((v) => v.mount_path.length)) : -1;
    for (const v of inside) {
      if (v.mount_path.length !== deepest) continue;
      const r = folderRange(v.rel);
      if (r === null) {
        ors.push('c.volume_id = ?');
        params.push(v.id);
      } else {
        ors.push('(c.volume_id = ? AND c.rel_path >= ? AND c.rel_path < ?)');
        params.push(v.id, r.lo, r.hi);
      }
    }
    for (const v of vols) {
      const rel = relativeOnVolume(abs, v.mount_path);
      if (rel !== null && rel !== '') {
        ors.push('c.volume_id = ?');
        params.push(v.id);
      }
    }
    return ors.length === 0 ? { sql: '0', params: [] } : { sql: `(${ors.join(' OR ')})`, params };
  }

  /** Conditions on the clip `c` (duration, height, folder, date, ids, marks): shared by segment and clip filters. */
  function clipConditions(f: SearchFilters): SqlPart {
    const where: string[] = [];
    const params: unknown[] = [];
    if (f.durationS?.min !== undefined) {
      where.push('c.duration_s >= ?');
      params.push(f.durationS.min);
    }
    if (f.durationS?.max !== undefined) {
      where.push('c.duration_s <= ?');
      params.push(f.durationS.max);
    }
    if (f.minHeight !== undefined) {
      where.push('c.height >= ?');
      params.push(f.minHeight);
    }
    if (f.folder !== undefined) {
      const part = folderCondition(f.folder);
      where.push(part.sql);
      params.push(...part.params);
    }
    if (f.date && (f.date.from !== undefined || f.date.to !== undefined)) {
      const col = f.date.field === 'imported' ? 'c.created_at' : 'c.mtime_ms';
      if (f.date.from !== undefined) {
        where.push(`${col} >= ?`);
        params.push(f.date.from);
      }
      if (f.date.to !== undefined) {
        where.push(`${col} <= ?`);
        params.push(f.date.to);
      }
    }
    if (f.clipIds?.length) {
      where.push('c.id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(f.clipIds));
    }
    const marks = markFilterSql({ rating: f.rating, keyword: f.keyword });
    where.push(...marks.sql);
    params.push(...marks.params);
    return { sql: where.length ? where.join(' AND ') : '1', params };
  }

  return {
    /**
     * The segments (with an embedding in `space`) the filters allow, or null when nothing is filtered:
     * the set then goes to the index's filtered k-NN (an exact scan when it is small).
     */
    allowedSegmentIds(f: SearchFilters, space: EmbeddingSpace): Set<number> | null {
      if (!hasFilters(f)) return null;
      const clip = clipConditions(f);
      const tags = tagConditions(f);
      return new Set(
        compiled(
          `SELECT s.id FROM segments s
           JOIN embeddings e ON e.segment_id = s.id AND e.model = ? AND e.region = ?
           JOIN clips c ON c.id = s.clip_id
           WHERE ${clip.sql} AND ${tags.sql}`,
        )
          .pluck()
          .all(space.model, space.region, ...clip.params, ...tags.params) as number[],
      );
    },

    /**
     * Which of `clipIds` pass the filters: what a collection hit (a whole video, no segment) is checked
     * against. Tag filters need at least one segment of the clip with matching tags.
     */
    passingClips(f: SearchFilters, clipIds: readonly number[]): Set<number> {
      if (clipIds.length === 0) return new Set();
      const clip = clipConditions(f);
      const tags = tagConditions(f);
      const tagSql = tags.sql === '1' ? '' : ` AND EXISTS (SELECT 1 FROM segments s WHERE s.clip_id = c.id AND ${tags.sql})`;
      return new Set(
        compiled(`SELECT c.id FROM clips c WHERE c.id IN (SELECT value FROM json_each(?)) AND ${clip.sql}${tagSql}`)
          .pluck()
          .all(JSON.stringify(clipIds), ...clip.params, ...tags.params) as number[],
      );
    },

    /**
     * How many searchable segments of `space` have each value of `field`: resolved ('either'), or as
     * one source says it (people have one source, the local face count).
     */
    facetCounts(field: FacetField, source: TagSourceChoice, space: EmbeddingSpace): Map<string, number> {
      const values = facetValuesSql(field, source);
      return new Map(
        (
          compiled(
            `SELECT tv.value AS v, COUNT(DISTINCT tv.segment_id) AS n FROM (${values}) tv
             JOIN embeddings e ON e.segment_id = tv.segment_id AND e.model = ? AND e.region = ?
             WHERE tv.value IS NOT NULL GROUP BY tv.value`,
          ).all(space.model, space.region) as { v: string; n: number }[]
        ).map((r) => [r.v, r.n]),
      );
    },

    /** The clips with a segment searchable in `space`, as the facets describe them. */
    searchableClips(space: EmbeddingSpace): SearchableClip[] {
      return q.searchableClips.all(space.model, space.region) as SearchableClip[];
    },
  };
}

export type SearchFilterStore = ReturnType<typeof createSearchFilterStore>;
