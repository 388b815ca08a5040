import { FACET_FIELDS, type SearchFiltersIn, type Strictness } from '../../../../src-shared/contract/search';

/**
 * The search on screen follows the box: its words with the filters, the filters alone when the box
 * is empty (facets browse by themselves), or nothing when neither is set. Never the words of an
 * earlier search: an emptied box is no query, whatever ran before it.
 */

export interface SearchOptions {
  topK: number;
  strictness: Strictness;
  /** Already cleaned (FilterBar's cleanFilters): only what narrows. */
  filters: SearchFiltersIn;
  collections: boolean;
}

/** A text search as use-search.ts runs it (kept here so this module needs no API client). */
export type TextRequest = { kind: 'text'; text: string } & SearchOptions;

export type BoxIntent = { kind: 'run'; request: TextRequest } | { kind: 'clear' };

export function followBox(box: string, o: SearchOptions): BoxIntent {
  const text = box.trim();
  if (!text && filterCount(o.filters) === 0) return { kind: 'clear' };
  return { kind: 'run', request: { kind: 'text', text, topK: o.topK, strictness: o.strictness, filters: o.filters, collections: o.collections } };
}

/**
 * How many filters are on, as the editor sees them: each tag chip pressed is one (two shot sizes
 * are two, not one "tags" field), each other control set is one (a duration's min and max are one
 * control). The Filters button's count, so it equals the chips shown.
 */
export function filterCount(f: SearchFiltersIn): number {
  let n = 0;
  for (const k of FACET_FIELDS) n += (f.tags?.[k]?.length ?? 0) + (f.tags?.exclude?.[k]?.length ?? 0);
  for (const on of [f.durationS, f.minHeight, f.folder, f.date, f.clipIds, f.rating, f.keyword]) if (on !== undefined) n++;
  return n;
}
