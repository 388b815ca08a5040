import path from 'node:path';
import type { FacetValue, Facets, TagField } from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { joinOnVolume } from '../library/clip-paths';
import { tagLabel } from '../tags/tag-vocabulary';
import type { EmbeddingSpace } from './query-cache';
import { TAG_COLUMNS, tableExists } from './search-filters';

const MAX_FOLDERS = 500;

function tagFacet(db: CatalogDb, field: TagField, space: EmbeddingSpace, hasLocal: boolean): FacetValue[] {
  const cols = TAG_COLUMNS[field];
  // Stored values are vocabulary ids already: one row per id and source.
  const byCanonical = new Map<string, FacetValue>();
  const add = (canonical: string, n: number, source: 'service' | 'local') => {
    if (!canonical) return;
    const e = byCanonical.get(canonical) ?? { canonical, label: tagLabel(field, canonical), service: 0, local: 0 };
    e[source] += n;
    byCanonical.set(canonical, e);
  };
  const service = db
    .prepare(
      `SELECT st.${cols.service} AS v, COUNT(*) AS n FROM service_tags st
       JOIN embeddings e ON e.segment_id = st.segment_id AND e.model = ? AND e.region = ?
       WHERE st.${cols.service} IS NOT NULL GROUP BY st.${cols.service}`,
    )
    .all(space.model, space.region) as { v: string; n: number }[];
  for (const r of service) add(r.v, r.n, 'service');
  if (cols.local !== null && hasLocal) {
    const local = db
      .prepare(
        `SELECT lt.value AS v, COUNT(DISTINCT s.id) AS n FROM shot_local_tags lt
         JOIN segments s ON s.shot_id = lt.shot_id
         JOIN embeddings e ON e.segment_id = s.id AND e.model = ? AND e.region = ?
         WHERE lt.category = ? GROUP BY lt.value`,
      )
      .all(space.model, space.region, cols.local) as { v: string; n: number }[];
    for (const r of local) add(r.v, r.n, 'local');
  }
  return [...byCanonical.values()].sort((a, b) => b.service + b.local - (a.service + a.local) || a.canonical.localeCompare(b.canonical));
}

/** What the filter bar can offer: tag values with counts per source, folders, and ranges, over searchable clips. */
export function searchFacets(db: CatalogDb, space: EmbeddingSpace): Facets {
  const hasLocal = tableExists(db, 'shot_local_tags');
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
    shotSize: tagFacet(db, 'shotSize', space, hasLocal),
    cameraMovement: tagFacet(db, 'cameraMovement', space, hasLocal),
    shootingAngle: tagFacet(db, 'shootingAngle', space, hasLocal),
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
