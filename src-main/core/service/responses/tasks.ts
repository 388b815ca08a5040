import { normalizeTags, type NormalizedTags } from '../tags';
import { findVectors, firstString, isRecord, looseRecord, notUnderstood, requiredId, stateKey } from './read-body';

/** The answers of the asynchronous tasks: the request id a submit answers with, a task's status (its embedding or tags once done) and a tagging result. */

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
