import path from 'node:path';
import type { FacetField, FacetValue, Facets } from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { joinOnVolume } from '../library/clip-paths';
import { tagLabel } from '../tags/tag-vocabulary';
import type { EmbeddingSpace } from './embedding-space';
import { PEOPLE_LABELS, PEOPLE_SQL, tagValuesSql, type PeopleValue } from './tag-resolution';

const MAX_FOLDERS = 500;

/**
 * Values of one field over the searchable segments of `space`: how many segments resolve to each
 * (tag-resolution.ts), and how many each source tags so. A value a source gave is listed even where
 * it lost every decision (the service said "tilt up" where the local analysis, more confident, said
 * tilt down): it stays countable, and filterable under that source.
 */
function facet(db: CatalogDb, field: FacetField, space: EmbeddingSpace): FacetValue[] {
  const count = (sql: string) =>
    new Map(
      (
        db
          .prepare(
            `SELECT tv.value AS v, COUNT(DISTINCT tv.segment_id) AS n FROM (${sql}) tv
             JOIN embeddings e ON e.segment_id = tv.segment_id AND e.model = ? AND e.region = ?
             WHERE tv.value IS NOT NULL GROUP BY tv.value`,
          )
          .all(space.model, space.region) as { v: string; n: number }[]
      ).map((r) => [r.v, r.n]),
    );
  const resolved = count(field === 'people' ? PEOPLE_SQL : tagValuesSql(field, 'either'));
  const service = field === 'people' ? new Map<string, number>() : count(tagValuesSql(field, 'service'));
  const local = field === 'people' ? resolved : count(tagValuesSql(field, 'local'));
  const label = (v: string) => (field === 'people' ? PEOPLE_LABELS[v as PeopleValue] : tagLabel(field, v));
  const values = new Set([...resolved.keys(), ...service.keys(), ...local.keys()]);
  return [...values]
    .map((canonical) => ({ canonical, label: label(canonical), segments: resolved.get(canonical) ?? 0, service: service.get(canonical) ?? 0, local: local.get(canonical) ?? 0 }))
    .sort((a, b) => b.segments - a.segments || b.service + b.local - (a.service + a.local) || a.canonical.localeCompare(b.canonical));
}

/** What the filter bar can offer: tag values with counts per source, folders, and ranges, over searchable clips. */
export function searchFacets(db: CatalogDb, space: EmbeddingSpace): Facets {
  const searchable = `SELECT DISTINCT s.clip_id FROM segments s JOIN embeddings e ON e.segment_id = s.id AND e.model = ? AND e.region = ?`;
  const clips = db
    .prepare(
      `SELECT v.mount_path, c.rel_path, c.duration_s, c.height, c.mtime_ms, c.created_at
       FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id IN (${searchable})`,
    )
    .all(space.model, space.region) as { mount_path: string; rel_path: string; duration_s: number | null; height: number | null; mtime_ms: number; created_at: number }[];

  const folders = new Map<string, number>();
  const heights = new Set<number>();
  let dur: { min: number; max: number } | null = null;
  let modified: { min: number; max: number } | null = null;
  let imported: { min: number; max: number } | null = null;
  const widen = (r: { min: number; max: number } | null, v: number) => (r ? { min: Math.min(r.min, v), max: Math.max(r.max, v) } : { min: v, max: v });
  for (const c of clips) {
    const folder = path.dirname(joinOnVolume(c.mount_path, c.rel_path));
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
    if (c.height !== null) heights.add(c.height);
    if (c.duration_s !== null) dur = widen(dur, c.duration_s);
    modified = widen(modified, c.mtime_ms);
    imported = widen(imported, c.created_at);
  }
  return {
    shotSize: facet(db, 'shotSize', space),
    cameraMovement: facet(db, 'cameraMovement', space),
    shootingAngle: facet(db, 'shootingAngle', space),
    people: facet(db, 'people', space),
    folders: [...folders.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .slice(0, MAX_FOLDERS)
      .map(([p, n]) => ({ path: p, clips: n })),
    durationS: dur,
    heights: [...heights].sort((a, b) => a - b),
    modified,
    imported,
  };
}
