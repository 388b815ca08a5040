import path from 'node:path';
import type { FacetField, FacetValue, Facets } from '../../../../src-shared/contract/search';
import { joinOnVolume } from '../../library/clip-paths';
import { tagLabel } from '../../tags/tag-vocabulary';
import type { EmbeddingSpace } from '../index/embedding-space';
import type { SearchFilterStore } from './search-filter-store';
import { PEOPLE_LABELS, type PeopleValue } from './tag-resolution-store';

const MAX_FOLDERS = 500;

/**
 * Values of one field over the searchable segments of `space`: how many segments resolve to each
 * (tag-resolution-store.ts), and how many each source tags so. A value a source gave is listed even
 * where it lost every decision (the service said "tilt up" where the local analysis, more confident,
 * said tilt down): it stays countable, and filterable under that source.
 */
function facet(store: SearchFilterStore, field: FacetField, space: EmbeddingSpace): FacetValue[] {
  const resolved = store.facetCounts(field, 'either', space);
  // People come from the local face count alone.
  const service = field === 'people' ? new Map<string, number>() : store.facetCounts(field, 'service', space);
  const local = field === 'people' ? resolved : store.facetCounts(field, 'local', space);
  const label = (v: string) => (field === 'people' ? PEOPLE_LABELS[v as PeopleValue] : tagLabel(field, v));
  const values = new Set([...resolved.keys(), ...service.keys(), ...local.keys()]);
  return [...values]
    .map((canonical) => ({ canonical, label: label(canonical), segments: resolved.get(canonical) ?? 0, service: service.get(canonical) ?? 0, local: local.get(canonical) ?? 0 }))
    .sort((a, b) => b.segments - a.segments || b.service + b.local - (a.service + a.local) || a.canonical.localeCompare(b.canonical));
}

/** What the filter bar can offer: tag values with counts per source, folders, and ranges, over searchable clips. */
export function searchFacets(store: SearchFilterStore, space: EmbeddingSpace): Facets {
  const folders = new Map<string, number>();
  const heights = new Set<number>();
  let dur: { min: number; max: number } | null = null;
  let modified: { min: number; max: number } | null = null;
  let imported: { min: number; max: number } | null = null;
  const widen = (r: { min: number; max: number } | null, v: number) => (r ? { min: Math.min(r.min, v), max: Math.max(r.max, v) } : { min: v, max: v });
  for (const c of store.searchableClips(space)) {
    const folder = path.dirname(joinOnVolume(c.mount_path, c.rel_path));
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
    if (c.height !== null) heights.add(c.height);
    if (c.duration_s !== null) dur = widen(dur, c.duration_s);
    modified = widen(modified, c.mtime_ms);
    imported = widen(imported, c.created_at);
  }
  return {
    shotSize: facet(store, 'shotSize', space),
    cameraMovement: facet(store, 'cameraMovement', space),
    shootingAngle: facet(store, 'shootingAngle', space),
    people: facet(store, 'people', space),
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
