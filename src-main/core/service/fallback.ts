import { AppError, toAppError } from '../../../src-shared/errors';
import type { ServiceClient, TagVideoInput } from './client';
import type { PollOptions } from './polling';
import type { AsyncStatus } from './responses/tasks';
import type { NormalizedTags } from './tags';
import type { CallOptions } from './http/transport';

export interface FallbackOptions extends CallOptions {
  poll?: PollOptions<AsyncStatus>;
  /** Told when the sync call timed out and the async counterpart was submitted. */
  onFallback?: (info: { requestId: string; cause: AppError }) => void;
  /**
   * Where the async task's request id is kept across a lost answer or a restart: a task recorded
   * there is asked about (GET /async_status/{id}) before anything is sent, and polled if the service
   * still has it. Without one, every call sends.
   */
  journal?: TaskJournal;
}

/** The request id of one input's async task, kept by the caller's store. */
export interface TaskJournal {
  recorded(): string | undefined;
  /** Written the moment the service answers the submit. */
  record(requestId: string): void;
  /** The recorded task is of no more use (failed, or unknown to the service). */
  clear(): void;
}

/**
 * The task recorded for this input, if the service still has it and it has not failed: polled
 * instead of sending anything again. A 404 or a failed task forgets it; any other trouble (the
 * service away) is thrown, so nothing is sent on a guess.
 */
async function earlierTask(client: ServiceClient, opts: FallbackOptions): Promise<string | undefined> {
  const requestId = opts.journal?.recorded();
  if (requestId === undefined) return undefined;
  try {
    const s = await client.getAsyncStatus(requestId, { signal: opts.signal });
    if (s.status !== 'failed') return requestId;
  } catch (e) {
    if (toAppError(e).kind !== 'not_found') throw e;
  }
  opts.journal?.clear();
  return undefined;
}

/** Sends the async counterpart and records its id before anything else can lose it. */
async function submitted(submit: () => Promise<{ requestId: string }>, cause: AppError, opts: FallbackOptions): Promise<string> {
  const { requestId } = await submit();
  opts.journal?.record(requestId);
  opts.onFallback?.({ requestId, cause });
  return requestId;
}

async function polled(client: ServiceClient, requestId: string, opts: FallbackOptions): Promise<AsyncStatus> {
  const s = await client.pollAsyncTask(requestId, { signal: opts.signal, ...opts.poll });
  if (s.status === 'failed') opts.journal?.clear();
  return s;
}

function isTimeout(e: unknown): e is AppError {
  return e instanceof AppError && e.kind === 'timeout';
}

/** A task that ends in failed is terminal for that submission; the reason is the service's. */
function failedTask(s: AsyncStatus, what: string): AppError {
  return new AppError('server', `${what} task ${s.requestId} failed: ${s.errorMessage ?? 'no reason given'}`);
}

export interface EmbeddingOutcome {
  embeddings: number[][];
  dimension: number;
  via: 'sync' | 'async';
  requestId?: string;
}

/**
 * Sync encode; on 504 (or our own deadline) the spec's advice: the async counterpart, polled to the end.
 * A task the journal recorded and the service still has is polled first, and nothing is sent.
 */
export async function encodeVideoWithFallback(client: ServiceClient, videoUrl: string, opts: FallbackOptions = {}): Promise<EmbeddingOutcome> {
  let requestId = await earlierTask(client, opts);
  if (requestId === undefined) {
    try {
      const r = await client.encodeVideo(videoUrl, opts);
      return { embeddings: r.embeddings, dimension: r.dimension, via: 'sync' };
    } catch (e) {
      if (!isTimeout(e)) throw e;
      requestId = await submitted(() => client.encodeVideoAsync({ videoUrl }, { signal: opts.signal }), e, opts);
    }
  }
  const s = await polled(client, requestId, opts);
  if (s.status === 'failed') throw failedTask(s, 'encode_video');
  if (!s.embedding || s.embedding.length === 0) throw new AppError('invalid', `encode_video task ${requestId} completed without an embedding`);
  return { embeddings: [s.embedding], dimension: s.embedding.length, via: 'async', requestId };
}

export interface TagOutcome {
  tags: NormalizedTags;
  tagsRaw: unknown;
  via: 'sync' | 'async';
  requestId?: string;
}

/** Base64 input has no async counterpart in the spec: the client waits a busy service out (SYNC_CALL_RETRY) and a 504 that outlasts it goes back to the caller. */
export async function tagVideoWithFallback(client: ServiceClient, input: TagVideoInput, opts: FallbackOptions = {}): Promise<TagOutcome> {
  let requestId = input.videoUrl === undefined ? undefined : await earlierTask(client, opts);
  if (requestId === undefined) {
    try {
      const r = await client.tagVideo(input, opts);
      return { tags: r.tags, tagsRaw: r.tagsRaw, via: 'sync' };
    } catch (e) {
      const videoUrl = input.videoUrl;
      if (!isTimeout(e) || videoUrl === undefined) throw e;
      requestId = await submitted(() => client.tagVideoAsync({ videoUrl }, { signal: opts.signal }), e, opts);
    }
  }
  const s = await polled(client, requestId, opts);
  if (s.status === 'failed') throw failedTask(s, 'video_tagging');
  if (!s.tags) throw new AppError('invalid', `video_tagging task ${requestId} completed without tags`);
  return { tags: s.tags, tagsRaw: s.tagsRaw, via: 'async', requestId };
}
