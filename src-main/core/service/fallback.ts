import { AppError } from '../../../src-shared/errors';
import type { ServiceClient, TagVideoInput } from './client';
import type { PollOptions } from './polling';
import type { AsyncStatus } from './responses/tasks';
import type { NormalizedTags } from './tags';
import type { CallOptions } from './http/transport';

export interface FallbackOptions extends CallOptions {
  poll?: PollOptions<AsyncStatus>;
  /** Told when the sync call timed out and the async counterpart was submitted. */
  onFallback?: (info: { requestId: string; cause: AppError }) => void;
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

/** Sync encode; on 504 (or our own deadline) the spec's advice: the async counterpart, polled to the end. */
export async function encodeVideoWithFallback(client: ServiceClient, videoUrl: string, opts: FallbackOptions = {}): Promise<EmbeddingOutcome> {
  try {
    const r = await client.encodeVideo(videoUrl, opts);
    return { embeddings: r.embeddings, dimension: r.dimension, via: 'sync' };
  } catch (e) {
    if (!isTimeout(e)) throw e;
    const { requestId } = await client.encodeVideoAsync({ videoUrl }, { signal: opts.signal });
    opts.onFallback?.({ requestId, cause: e });
    const s = await client.pollAsyncTask(requestId, { signal: opts.signal, ...opts.poll });
    if (s.status === 'failed') throw failedTask(s, 'encode_video');
    if (!s.embedding || s.embedding.length === 0) throw new AppError('invalid', `encode_video task ${requestId} completed without an embedding`);
    return { embeddings: [s.embedding], dimension: s.embedding.length, via: 'async', requestId };
  }
}

export interface TagOutcome {
  tags: NormalizedTags;
  tagsRaw: unknown;
  via: 'sync' | 'async';
  requestId?: string;
}

/** Base64 input has no async counterpart in the spec: the client waits a busy service out (SYNC_CALL_RETRY) and a 504 that outlasts it goes back to the caller. */
export async function tagVideoWithFallback(client: ServiceClient, input: TagVideoInput, opts: FallbackOptions = {}): Promise<TagOutcome> {
  try {
    const r = await client.tagVideo(input, opts);
    return { tags: r.tags, tagsRaw: r.tagsRaw, via: 'sync' };
  } catch (e) {
    if (!isTimeout(e) || input.videoUrl === undefined) throw e;
    const { requestId } = await client.tagVideoAsync({ videoUrl: input.videoUrl }, { signal: opts.signal });
    opts.onFallback?.({ requestId, cause: e });
    const s = await client.pollAsyncTask(requestId, { signal: opts.signal, ...opts.poll });
    if (s.status === 'failed') throw failedTask(s, 'video_tagging');
    if (!s.tags) throw new AppError('invalid', `video_tagging task ${requestId} completed without tags`);
    return { tags: s.tags, tagsRaw: s.tagsRaw, via: 'async', requestId };
  }
}
