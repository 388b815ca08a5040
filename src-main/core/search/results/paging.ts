import type { SearchFilter, SearchHit } from '../index/vector-types';
import { groupResults, type Hit, type ResultGroup } from './result-groups';
import type { ResultStore } from './result-store';
import { fileIdentities } from './search-results';

/** The most hits one page may look through before it stops filling (a text query; filters list everything). */
const MAX_CANDIDATES = 4096;

/** One page of groups, and whether more follow. */
export interface Page {
  groups: ResultGroup[];
  hasMore: boolean;
  /** Every group's other copies of its file, read once with the identities the groups were made by. */
  copies: (clipId: number) => number[];
}

/** The vector index's k nearest neighbours under a filter (SearchIndexManager.search). */
export type IndexSearch = (vector: ArrayLike<number>, k: number, filter?: SearchFilter) => Promise<SearchHit[]>;

/** Hits fetched for the first round of a page of `cards`: a few more, since a shot's segments merge and a clip's moments group. */
export function candidatesFor(cards: number): number {
  return Math.min(MAX_CANDIDATES, cards + Math.ceil(cards / 2));
}

/** Local k-NN under the filters. An empty allow-set means nothing can match: the index is not asked. */
export async function localHits(search: IndexSearch, vector: ArrayLike<number>, k: number, allowed: Set<number> | null, exclude?: ReadonlySet<number>): Promise<SearchHit[]> {
  if (allowed !== null && allowed.size === 0) return [];
  let filter: SearchFilter | undefined = allowed ?? undefined;
  let ask = k;
  if (!allowed && exclude?.size) {
    // A few excluded ids (the query segment, its neighbourhood): ask for that many more and drop them.
    ask = k + exclude.size;
    filter = undefined;
  }
  return (await search(vector, ask, filter)).filter((h) => !exclude?.has(h.id)).slice(0, k);
}

/** Hits grouped one card per file (copies of a file are one card), with each group's other copies. */
export function groupByFile(results: ResultStore, hits: readonly Hit[]): { groups: ResultGroup[]; copies: (clipId: number) => number[] } {
  const ids = fileIdentities(results, hits.map((h) => h.clipId));
  return { groups: groupResults(hits, { identity: ids.identity }), copies: ids.copies };
}

/** Groups `offset`..`offset + limit` of `groups`. */
export function pageOf(groups: ResultGroup[], copies: Page['copies'], offset: number, limit: number): Page {
  return { groups: groups.slice(offset, offset + limit), hasMore: groups.length > offset + limit, copies };
}

export interface PageQuery {
  vector: ArrayLike<number>;
  /** Segments the filters allow (null: every one). */
  allowed: Set<number> | null;
  /** Segments never shown (find-similar's source and its neighbourhood). */
  exclude?: ReadonlySet<number>;
  offset: number;
  limit: number;
}

/**
 * A page of cards from the index: candidates are fetched until the page is full (each round doubles
 * them), so a long clip's many segments cannot leave a page half empty. `score` turns a round's
 * candidates into scored hits; `extra` (the collection hits) joins every round.
 */
export async function fillPage(d: { search: IndexSearch; results: ResultStore }, q: PageQuery, score: (found: SearchHit[]) => Hit[], extra: Hit[] = []): Promise<Page> {
  const want = q.offset + q.limit + 1;
  const cap = Math.min(MAX_CANDIDATES, q.allowed?.size ?? Number.POSITIVE_INFINITY);
  for (let k = candidatesFor(want); ; k = Math.min(cap, k * 2)) {
    const found = await localHits(d.search, q.vector, k, q.allowed, q.exclude);
    const { groups, copies } = groupByFile(d.results, [...score(found), ...extra]);
    const exhausted = found.length < k || k >= cap;
    if (groups.length >= want || exhausted) return pageOf(groups, copies, q.offset, q.limit);
  }
}
