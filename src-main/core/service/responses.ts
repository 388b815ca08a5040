import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import { normalizeTags, type NormalizedTags } from './tags';

/**
 * Tolerant readers for every response body. Each keeps the raw JSON; each looks for the spec's
 * field first and then for the spellings a real service plausibly uses, and each throws
 * AppError('invalid') (no retry: the same answer will come back) when the needed part is missing.
 */

const vectorSchema = z.array(z.number());
const matrixSchema = z.array(vectorSchema).min(1);
const looseRecord = z.looseObject({});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function notUnderstood(what: string, body: unknown): AppError {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return new AppError('invalid', `${what}: service response not understood: ${text.slice(0, 200)}`);
}

const VIDEO_ID_KEYS = ['video_id', 'videoId', 'id'];

function firstString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** Every vector found in the places embeddings are put: [[..]], [..], [{embedding: [..]}], nested under data/result. */
export function findVectors(body: unknown, depth = 0): number[][] | undefined {
  if (depth > 3) return undefined;
  const asMatrix = matrixSchema.safeParse(body);
  if (asMatrix.success) return asMatrix.data;
  const asVector = vectorSchema.min(1).safeParse(body);
  if (asVector.success) return [asVector.data];
  if (Array.isArray(body) && body.length > 0 && body.every(isRecord)) {
    const vs = body.map((item) => findVectors(item, depth + 1)?.[0]);
    if (vs.every((v): v is number[] => v !== undefined)) return vs;
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  for (const key of ['embeddings', 'embedding', 'vectors', 'vector', 'data', 'result', 'output']) {
    if (!(key in body)) continue;
    const found = findVectors(body[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

export interface EncodeVideoResult {
  embeddings: number[][];
  /** Length of the first vector: the spec fixes no dimension. */
  dimension: number;
  raw: unknown;
}

export function parseEncodeVideo(body: unknown): EncodeVideoResult {
  const vectors = findVectors(body);
  if (!vectors || vectors[0]!.length === 0) throw notUnderstood('encode_video', body);
  return { embeddings: vectors, dimension: vectors[0]!.length, raw: body };
}

export interface EncodeTextResult {
  embedding: number[];
  dimension: number;
  raw: unknown;
}

export function parseEncodeText(body: unknown): EncodeTextResult {
  const vectors = findVectors(body);
  if (!vectors || vectors[0]!.length === 0) throw notUnderstood('encode_text', body);
  return { embedding: vectors[0]!, dimension: vectors[0]!.length, raw: body };
}

/** The id a creating call answers with, under the first of `keys` the body has. */
function requiredId(body: unknown, keys: string[], what: string): string {
  const o = looseRecord.safeParse(body);
  const id = o.success ? firstString(o.data, keys) : undefined;
  if (!id) throw notUnderstood(what, body);
  return id;
}

export function parseRequestId(body: unknown, what: string): string {
  return requiredId(body, ['request_id', 'requestId', 'task_id', 'taskId', 'id'], what);
}

export type AsyncState = 'pending' | 'processing' | 'completed' | 'failed' | 'unknown';

const TASK_STATES: Record<string, Exclude<AsyncState, 'unknown'>> = {
  pending: 'pending',
  queued: 'pending',
  submitted: 'pending',
  waiting: 'pending',
  created: 'pending',
  accepted: 'pending',
  processing: 'processing',
  running: 'processing',
  in_progress: 'processing',
  started: 'processing',
  completed: 'completed',
  complete: 'completed',
  succeeded: 'completed',
  success: 'completed',
  done: 'completed',
  finished: 'completed',
  failed: 'failed',
  failure: 'failed',
  error: 'failed',
  errored: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
};

function stateKey(s: string): string {
  return s.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export interface AsyncStatus {
  requestId: string;
  status: AsyncState;
  /** As the service sent it, also when it is not one we know. */
  rawStatus?: string;
  embedding?: number[];
  /** The tagging result, found under tags, result or data. */
  tagsRaw?: unknown;
  tags?: NormalizedTags;
  errorMessage?: string;
  raw: unknown;
}

function tagsField(o: Record<string, unknown>): unknown {
  for (const key of ['tags', 'result', 'data', 'output']) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    // result/data may carry an embedding instead of tags: that is not a tagging result.
    if (key !== 'tags' && findVectors(v) && !(isRecord(v) && 'tags' in v)) continue;
    if (isRecord(v) && 'tags' in v && key !== 'tags') return v.tags;
    return v;
  }
  return undefined;
}

export function parseAsyncStatus(body: unknown, requestId: string): AsyncStatus {
  const parsed = looseRecord.safeParse(body);
  if (!parsed.success) throw notUnderstood('async_status', body);
  const o = parsed.data;
  const rawStatus = firstString(o, ['status', 'state', 'task_status', 'taskStatus']);
  const status: AsyncState = rawStatus ? (TASK_STATES[stateKey(rawStatus)] ?? 'unknown') : 'unknown';
  const out: AsyncStatus = { requestId, status, raw: body };
  if (rawStatus !== undefined) out.rawStatus = rawStatus;
  const errorMessage = firstString(o, ['error_message', 'errorMessage', 'error', 'message', 'detail', 'reason']);
  if (status === 'failed' && errorMessage) out.errorMessage = errorMessage;
  else if (status === 'failed' && isRecord(o.error)) out.errorMessage = firstString(o.error, ['message', 'detail', 'code']);
  if (status === 'completed') {
    const vectors = findVectors(o);
    if (vectors) out.embedding = vectors[0];
    const t = tagsField(o);
    if (t !== undefined) {
      out.tagsRaw = t;
      out.tags = normalizeTags(t);
    }
  }
  return out;
}

export interface TagResult {
  tags: NormalizedTags;
  tagsRaw: unknown;
  raw: unknown;
}

export function parseTagResult(body: unknown): TagResult {
  const o = looseRecord.safeParse(body);
  if (!o.success) {
    if (Array.isArray(body)) return { tags: normalizeTags(body), tagsRaw: body, raw: body };
    throw notUnderstood('video_tagging', body);
  }
  const t = tagsField(o.data) ?? o.data;
  return { tags: normalizeTags(t), tagsRaw: t, raw: body };
}

export interface StorageKeys {
  videoInputKey?: string;
  audioInputKey?: string;
  videoKwargsKey?: string;
  /** Every key found, by the name it was found under. */
  all: Record<string, string>;
  raw: unknown;
}

const KEY_ROLES: Array<[keyof Omit<StorageKeys, 'all' | 'raw'>, string[]]> = [
  ['videoInputKey', ['videoinputkey', 'videoinput', 'video', 'videokey']],
  ['audioInputKey', ['audioinputkey', 'audioinput', 'audio', 'audiokey']],
  ['videoKwargsKey', ['videokwargskey', 'videokwargs', 'kwargs', 'videokwargskey']],
];

function roleOf(name: string): keyof Omit<StorageKeys, 'all' | 'raw'> | undefined {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const [role, names] of KEY_ROLES) if (names.includes(n)) return role;
  return undefined;
}

/**
 * storage_keys as an object ({video_input_key: ...} or {video_input: ...}), a list of
 * {name|field, key|storage_key}, or the keys at the top level of the body.
 */
export function parseStorageKeys(body: unknown): StorageKeys {
  const o = looseRecord.safeParse(body);
  if (!o.success) throw notUnderstood('files/upload/tensors', body);
  const container: unknown = o.data.storage_keys ?? o.data.storageKeys ?? o.data.keys ?? o.data;
  const all: Record<string, string> = {};
  if (Array.isArray(container)) {
    for (const item of container) {
      if (!isRecord(item)) continue;
      const name = firstString(item, ['name', 'field', 'input', 'role', 'type']);
      const key = firstString(item, ['key', 'storage_key', 'storageKey', 'id', 'value']);
      if (name && key) all[name] = key;
    }
  } else if (isRecord(container)) {
    for (const [k, v] of Object.entries(container)) {
      if (typeof v === 'string' && roleOf(k)) all[k] = v;
      else if (isRecord(v)) {
        const key = firstString(v, ['key', 'storage_key', 'storageKey', 'id']);
        if (key) all[k] = key;
      }
    }
  }
  const out: StorageKeys = { all, raw: body };
  for (const [name, key] of Object.entries(all)) {
    const role = roleOf(name);
    if (role && out[role] === undefined) out[role] = key;
  }
  if (!out.videoInputKey && !out.audioInputKey && !out.videoKwargsKey) throw notUnderstood('files/upload/tensors', body);
  return out;
}

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

export function parseVideoId(body: unknown): string {
  return requiredId(body, VIDEO_ID_KEYS, 'video upload');
}

export type VideoState = 'uploaded' | 'processing' | 'processed' | 'failed' | 'unknown';

const VIDEO_STATES: Record<string, Exclude<VideoState, 'unknown'>> = {
  uploaded: 'uploaded',
  pending: 'uploaded',
  queued: 'uploaded',
  waiting: 'uploaded',
  processing: 'processing',
  running: 'processing',
  in_progress: 'processing',
  processed: 'processed',
  completed: 'processed',
  complete: 'processed',
  done: 'processed',
  ready: 'processed',
  succeeded: 'processed',
  failed: 'failed',
  error: 'failed',
  errored: 'failed',
};

export interface VideoStatus {
  videoId: string;
  status: VideoState;
  rawStatus?: string;
  /** Percent 0..100 when the service sent one. */
  progress?: number;
  errorMessage?: string;
  raw: unknown;
}

function readProgress(v: unknown): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
    if (m) n = Number(m[1]);
  }
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return Math.min(100, Math.max(0, n));
}

export function parseVideoStatus(body: unknown, videoId: string): VideoStatus {
  const o = looseRecord.safeParse(body);
  if (!o.success) throw notUnderstood('video status', body);
  const rawStatus = firstString(o.data, ['status', 'state', 'processing_status']);
  const status: VideoState = rawStatus ? (VIDEO_STATES[stateKey(rawStatus)] ?? 'unknown') : 'unknown';
  const out: VideoStatus = { videoId, status, raw: body };
  if (rawStatus !== undefined) out.rawStatus = rawStatus;
  const progress = readProgress(o.data.progress ?? o.data.percent ?? o.data.percentage);
  if (progress !== undefined) out.progress = progress;
  const err = firstString(o.data, ['error_message', 'errorMessage', 'error', 'message', 'reason']);
  if (status === 'failed' && err) out.errorMessage = err;
  return out;
}
