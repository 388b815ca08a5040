import { firstString, isRecord, looseRecord, notUnderstood, VIDEO_ID_KEYS } from './read-body';

/** The answers of the collections endpoints: a page of the list (and where the next is), a created collection's id, a search's hits. */

export interface Collection {
  id: string;
  name?: string;
  description?: string;
  raw: unknown;
}

export type NextPage = { kind: 'url'; url: string } | { kind: 'query'; params: Record<string, string> };

export interface CollectionsPage {
  items: Collection[];
  next?: NextPage;
  raw: unknown;
}

function collectionOf(item: unknown): Collection | undefined {
  if (!isRecord(item)) return undefined;
  const id = firstString(item, ['id', 'collection_id', 'collectionId', '_id', 'uuid']);
  if (!id) return undefined;
  const c: Collection = { id, raw: item };
  const name = firstString(item, ['name', 'title', 'collection_name']);
  if (name !== undefined) c.name = name;
  const description = firstString(item, ['description', 'desc']);
  if (description !== undefined) c.description = description;
  return c;
}

const LIST_KEYS = ['collections', 'items', 'data', 'results', 'records', 'list', 'entries'];

function findList(o: Record<string, unknown>, depth = 0): { list: unknown[]; holder: Record<string, unknown> } | undefined {
  for (const k of LIST_KEYS) if (Array.isArray(o[k])) return { list: o[k] as unknown[], holder: o };
  for (const k of LIST_KEYS) {
    const v = o[k];
    if (isRecord(v) && depth < 2) {
      const inner = findList(v, depth + 1);
      if (inner) return inner;
    }
  }
  for (const v of Object.values(o)) if (Array.isArray(v)) return { list: v, holder: o };
  return undefined;
}

function nextOf(holder: Record<string, unknown>, top: Record<string, unknown>, count: number): NextPage | undefined {
  for (const src of holder === top ? [top] : [holder, top]) {
    const links = isRecord(src.links) ? src.links : isRecord(src._links) ? src._links : undefined;
    const linkNext = links ? (isRecord(links.next) ? firstString(links.next, ['href', 'url']) : firstString(links, ['next'])) : undefined;
    const url = firstString(src, ['next', 'next_url', 'nextUrl', 'next_page_url', 'nextPageUrl', 'next_link']) ?? linkNext;
    if (url) return { kind: 'url', url };
    const token = firstString(src, ['next_page_token', 'nextPageToken', 'next_token', 'nextToken', 'page_token_next']);
    if (token) return { kind: 'query', params: { page_token: token } };
    const cursor = firstString(src, ['next_cursor', 'nextCursor']);
    if (cursor) return { kind: 'query', params: { cursor } };
    const page = typeof src.page === 'number' ? src.page : undefined;
    if (page !== undefined) {
      const total = [src.total_pages, src.totalPages, src.pages, src.page_count].find((v): v is number => typeof v === 'number');
      const more = src.has_more ?? src.hasMore ?? src.has_next ?? src.hasNext;
      if ((total !== undefined && page < total) || more === true) return { kind: 'query', params: { page: String(page + 1) } };
      continue;
    }
    const offset = typeof src.offset === 'number' ? src.offset : undefined;
    const total = typeof src.total === 'number' ? src.total : typeof src.count === 'number' ? src.count : undefined;
    if (offset !== undefined && total !== undefined && offset + count < total && count > 0) {
      return { kind: 'query', params: { offset: String(offset + count) } };
    }
  }
  return undefined;
}

export function parseCollectionsPage(body: unknown): CollectionsPage {
  if (Array.isArray(body)) return { items: body.map(collectionOf).filter((c): c is Collection => !!c), raw: body };
  const o = looseRecord.safeParse(body);
  if (!o.success) throw notUnderstood('collections', body);
  const found = findList(o.data);
  if (!found) return { items: [], raw: body };
  const items = found.list.map(collectionOf).filter((c): c is Collection => !!c);
  const page: CollectionsPage = { items, raw: body };
  const next = nextOf(found.holder, o.data, found.list.length);
  if (next) page.next = next;
  return page;
}

export function parseCollectionId(body: unknown): string {
  const o = looseRecord.safeParse(body);
  const id = o.success ? (firstString(o.data, ['collection_id', 'collectionId', 'id']) ?? (isRecord(o.data.collection) ? firstString(o.data.collection, ['id', 'collection_id']) : undefined)) : undefined;
  if (!id) throw notUnderstood('create collection', body);
  return id;
}

export interface SearchHit {
  videoId: string;
  similarity: number;
  /** The matching moment, when the service says (seconds from the video's start). */
  startS: number | null;
  endS: number | null;
  raw: unknown;
}

function firstFinite(o: Record<string, unknown>, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

const HIT_START_KEYS = ['start_time', 'start', 'startTime', 'start_s', 'start_sec', 'begin'];
const HIT_END_KEYS = ['end_time', 'end', 'endTime', 'end_s', 'end_sec', 'stop'];

/**
 * Ordering is not stated in the spec: hits are sorted by similarity, highest first, ties in service
 * order. Whether a hit is a video or one of its segments is not stated either: a video that comes
 * back several times keeps its best hit (with that hit's times), so the answer is one hit per video.
 */
export function parseSearchResults(body: unknown): SearchHit[] {
  let list: unknown[] | undefined;
  if (Array.isArray(body)) list = body;
  else if (isRecord(body)) {
    for (const k of ['results', 'data', 'items', 'hits', 'matches']) if (Array.isArray(body[k])) {
      list = body[k] as unknown[];
      break;
    }
  }
  if (!list) throw notUnderstood('collection search', body);
  const hits: SearchHit[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const videoId = firstString(item, VIDEO_ID_KEYS);
    const sim = [item.similarity, item.score, item.similarity_score].find((v) => typeof v === 'number' && Number.isFinite(v));
    if (!videoId || typeof sim !== 'number') continue;
    const startS = firstFinite(item, HIT_START_KEYS);
    const endS = firstFinite(item, HIT_END_KEYS);
    const timed = startS !== null && endS !== null && endS > startS;
    hits.push({ videoId, similarity: sim, startS: timed ? startS : null, endS: timed ? endS : null, raw: item });
  }
  const sorted = hits.map((h, i) => ({ h, i })).sort((a, b) => b.h.similarity - a.h.similarity || a.i - b.i).map((x) => x.h);
  const seen = new Set<string>();
  return sorted.filter((h) => (seen.has(h.videoId) ? false : (seen.add(h.videoId), true)));
}
