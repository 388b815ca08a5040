import { AppError, toAppError } from '../../../src-shared/errors';
import type { ServiceConfig } from './config';
import { topKBoundFromMessage } from './learned-limits';
import { SYNC_CALL_RETRY } from './http/retry';
import { multipartExchange, type UploadProgress } from './http/multipart-upload';
import { pollUntil, type PollOptions } from './polling';
import type { LimiterSnapshot } from './http/rate-limiter';
import { parseVideoId, parseVideoStatus, type VideoStatus } from './responses/videos';
import { parseCollectionId, parseCollectionsPage, parseSearchResults, type Collection, type SearchHit } from './responses/collections';
import { parseStorageKeys, type StorageKeys } from './responses/storage-keys';
import { parseAsyncStatus, parseRequestId, parseTagResult, type AsyncStatus, type TagResult } from './responses/tasks';
import { parseEncodeText, parseEncodeVideo, type EncodeTextResult, type EncodeVideoResult } from './responses/embeddings';
import { checkTensorSize, type TensorDescriptor } from './tensor';
import { ServiceTransport, parseJsonBody, type CallOptions } from './http/transport';

export type EmbeddingTensorRef = { video_input_key: string; audio_input_key?: string };
export type TaggingTensorRef = { video_input_key: string; video_kwargs_key?: string };

/** URL or tensor keys, never both: the spec does not say which would win. */
export type EncodeVideoAsyncInput = { videoUrl: string; tensor?: never } | { tensor: EmbeddingTensorRef; videoUrl?: never };
export type TagVideoAsyncInput = { videoUrl: string; tensor?: never } | { tensor: TaggingTensorRef; videoUrl?: never };
export type TagVideoInput = { videoUrl: string; base64?: never } | { base64: string; videoUrl?: never };

export interface UploadTensorsRequest {
  service: 'embedding' | 'tagging';
  request_id: string;
  video_input?: TensorDescriptor;
  audio_input?: TensorDescriptor;
  video_kwargs?: Record<string, unknown>;
}

export interface UploadTensorsResult extends StorageKeys {
  requestId: string;
}

export interface SubmitResult {
  requestId: string;
  raw: unknown;
}

export interface UploadVideoOptions {
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
}

const MAX_LIST_PAGES = 1000;

function requireString(v: unknown, name: string): string {
  if (typeof v !== 'string' || v.trim() === '') throw new AppError('invalid', `${name} must be a non-empty string`);
  return v;
}

function pathId(id: string, name: string): string {
  try {
    return encodeURIComponent(requireString(id, name));
  } catch (e) {
    // A lone surrogate has no UTF-8 form (URIError): not an id any service could have given.
    if (e instanceof URIError) throw new AppError('invalid', `${name} is not valid text`);
    throw e;
  }
}

/** Only one of the two forms may be present: the spec leaves precedence open, so we never rely on it. */
function urlOrTensor<T>(input: { videoUrl?: string; tensor?: T }, what: string): { video_url: string } | { tensor: T } {
  const hasUrl = input.videoUrl !== undefined;
  const hasTensor = input.tensor !== undefined;
  if (hasUrl && hasTensor) throw new AppError('invalid', `${what}: send either video_url or tensor, not both`);
  if (hasUrl) return { video_url: requireString(input.videoUrl, 'video_url') };
  if (hasTensor) {
    const t = input.tensor as Record<string, unknown>;
    requireString(t.video_input_key, 'tensor.video_input_key');
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(t)) if (v !== undefined) out[k] = requireString(v, `tensor.${k}`);
    return { tensor: out as T };
  }
  throw new AppError('invalid', `${what}: video_url or tensor is required`);
}

/** The typed client of every endpoint in the spec. Stateless apart from the per-key state it shares. */
export class ServiceClient {
  readonly transport: ServiceTransport;

  constructor(config: ServiceConfig) {
    this.transport = new ServiceTransport(config);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  state(): { authRejected: boolean; quotaBlocked: boolean; limiter: LimiterSnapshot } {
    const s = this.transport.keyState;
    return { authRejected: s.authRejected, quotaBlocked: s.quotaBlocked, limiter: s.limiter.snapshot() };
  }

  /** The user resumed after a 402: billable calls go out again. */
  resumeQuota(): void {
    this.transport.keyState.quotaBlocked = false;
  }

  /** After the user re-entered (or confirmed) the key. */
  clearAuthRejection(): void {
    this.transport.keyState.authRejected = false;
  }

  /**
   * One cheap billable call through the quota gate: success reopens submissions, 402 keeps them
   * paused. Returns whether quota is available again.
   */
  async probeQuota(opts: CallOptions = {}): Promise<boolean> {
    try {
      await this.transport.request({ method: 'POST', path: '/video_embedding/encode_text', json: { text: 'quota probe' }, what: 'quota probe', billable: true, retryTimeout: true, bypassQuotaGate: true, ...opts });
      return true;
    } catch (e) {
      if (e instanceof AppError && e.kind === 'quota') return false;
      throw e;
    }
  }

  async encodeVideo(videoUrl: string, opts: CallOptions = {}): Promise<EncodeVideoResult> {
    const body = await this.transport.request({ method: 'POST', path: '/video_embedding/encode_video', json: { video_url: requireString(videoUrl, 'video_url') }, what: 'encode_video', billable: true, retryTimeout: false, ...opts });
    return parseEncodeVideo(body);
  }

  async encodeText(text: string, opts: CallOptions = {}): Promise<EncodeTextResult> {
    if (typeof text !== 'string' || text.trim() === '') throw new AppError('invalid', 'text must be a non-empty string');
    const body = await this.transport.request({ method: 'POST', path: '/video_embedding/encode_text', json: { text }, what: 'encode_text', billable: true, retryTimeout: true, ...opts });
    return parseEncodeText(body);
  }

  async encodeVideoAsync(input: EncodeVideoAsyncInput, opts: CallOptions = {}): Promise<SubmitResult> {
    const json = urlOrTensor(input, 'encode_video/async');
    const body = await this.transport.request({ method: 'POST', path: '/video_embedding/encode_video/async', json, what: 'encode_video/async', billable: true, retryTimeout: true, ...opts });
    return { requestId: parseRequestId(body, 'encode_video/async'), raw: body };
  }

  async getAsyncStatus(requestId: string, opts: CallOptions = {}): Promise<AsyncStatus> {
    const body = await this.transport.request({ method: 'GET', path: `/async_status/${pathId(requestId, 'request_id')}`, what: 'async_status', billable: false, retryTimeout: true, ...opts });
    return parseAsyncStatus(body, requestId);
  }

  async tagVideo(input: TagVideoInput, opts: CallOptions = {}): Promise<TagResult> {
    const hasUrl = input.videoUrl !== undefined;
    const hasData = input.base64 !== undefined;
    if (hasUrl === hasData) throw new AppError('invalid', 'video_tagging: send either video_url or base64 data');
    const json = hasUrl ? { video_url: requireString(input.videoUrl, 'video_url') } : { [this.transport.config.base64VideoField]: requireString(input.base64, 'base64 video') };
    // A URL has the async counterpart its caller falls back to on 504; Base64 data has none, so a
    // busy service is waited out within the sync-call deadline.
    const body = await this.transport.request({ method: 'POST', path: '/video_tagging', json, what: 'video_tagging', billable: true, retryTimeout: hasData, ...(hasData ? { retry: SYNC_CALL_RETRY } : {}), ...opts });
    return parseTagResult(body);
  }

  async tagVideoAsync(input: TagVideoAsyncInput, opts: CallOptions = {}): Promise<SubmitResult> {
    const json = urlOrTensor(input, 'video_tagging/async');
    const body = await this.transport.request({ method: 'POST', path: '/video_tagging/async', json, what: 'video_tagging/async', billable: true, retryTimeout: true, ...opts });
    return { requestId: parseRequestId(body, 'video_tagging/async'), raw: body };
  }

  async uploadTensors(req: UploadTensorsRequest, opts: CallOptions = {}): Promise<UploadTensorsResult> {
    if (req.service !== 'embedding' && req.service !== 'tagging') throw new AppError('invalid', `service must be embedding or tagging, got ${String(req.service)}`);
    requireString(req.request_id, 'request_id');
    if (!req.video_input) throw new AppError('invalid', `${req.service} tensors need video_input`);
    checkTensorSize(req.video_input, 'video_input');
    if (req.audio_input) checkTensorSize(req.audio_input, 'audio_input');
    if (req.video_kwargs !== undefined && (typeof req.video_kwargs !== 'object' || req.video_kwargs === null || Array.isArray(req.video_kwargs))) {
      throw new AppError('invalid', 'video_kwargs must be an object');
    }
    const json: Record<string, unknown> = { service: req.service, request_id: req.request_id, video_input: req.video_input };
    if (req.audio_input) json.audio_input = req.audio_input;
    if (req.video_kwargs) json.video_kwargs = req.video_kwargs;
    // Safe to retry: the request_id is derived from the content, so a repeat is the same upload.
    const body = await this.transport.request({ method: 'POST', path: '/files/upload/tensors', json, what: 'files/upload/tensors', billable: true, retryTimeout: true, ...opts });
    return { ...parseStorageKeys(body), requestId: req.request_id };
  }

  /**
   * Sent exactly once: creation is not idempotent in the spec, so a lost answer must be resolved by
   * looking at the list (collections/create-collection-once.ts), never by sending it again here.
   */
  async createCollection(name: string, description = '', opts: CallOptions = {}): Promise<{ collectionId: string; raw: unknown }> {
    const body = await this.transport.request({ method: 'POST', path: '/collections', json: { name: requireString(name, 'name'), description }, what: 'create collection', billable: false, retryTimeout: false, retry: { maxAttempts: 1 }, ...opts });
    return { collectionId: parseCollectionId(body), raw: body };
  }

  /** All collections, following whatever paging the service uses (none, token, page number, next URL, offset). */
  async listCollections(opts: CallOptions = {}): Promise<Collection[]> {
    const out: Collection[] = [];
    const seen = new Set<string>();
    let path = '/collections';
    let query: Record<string, string> | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const body = await this.transport.request({ method: 'GET', path, query, what: 'list collections', billable: false, retryTimeout: true, ...opts });
      const parsed = parseCollectionsPage(body);
      out.push(...parsed.items);
      const next = parsed.next;
      if (!next || parsed.items.length === 0) return out;
      const marker = next.kind === 'url' ? next.url : JSON.stringify(next.params);
      if (seen.has(marker)) return out;
      seen.add(marker);
      if (next.kind === 'url') {
        path = next.url;
        query = undefined;
      } else {
        path = '/collections';
        query = next.params;
      }
    }
    throw new AppError('invalid', `list collections: more than ${MAX_LIST_PAGES} pages`);
  }

  /**
   * Text search in a collection, one hit per video. The bounds of top_k are not in the spec: when a
   * search that sent top_k is refused (400/422), the bound the message names is tried (or top_k is
   * left out when it names none), and what worked is remembered for this service, so no error
   * reaches the user. A refusal that was not about top_k fails the same way without it and is thrown.
   */
  async searchCollection(collectionId: string, text: string, topK?: number, opts: CallOptions = {}): Promise<SearchHit[]> {
    requireString(text, 'text');
    if (topK !== undefined && !Number.isInteger(topK)) throw new AppError('invalid', 'top_k must be an integer');
    const limits = this.transport.keyState.learned;
    const path = `/collections/${pathId(collectionId, 'collection_id')}/search`;
    let trying: number | 'omit' | undefined = limits.searchTopK;
    for (let adapt = 0; ; adapt++) {
      const k = topK === undefined || trying === 'omit' ? undefined : trying === undefined ? topK : Math.min(topK, trying);
      const json: Record<string, unknown> = k === undefined ? { text } : { text, top_k: k };
      try {
        const body = await this.transport.request({ method: 'POST', path, json, what: 'collection search', billable: true, retryTimeout: true, ...opts });
        if (adapt > 0) limits.searchTopK = trying;
        return parseSearchResults(body);
      } catch (e) {
        const err = toAppError(e);
        if (k === undefined || err.kind !== 'invalid' || adapt >= 2) throw err;
        const bound = topKBoundFromMessage(err.message);
        // A bound at or above what was sent means the refusal is about something else.
        if (bound !== undefined && bound >= k) throw err;
        trying = bound ?? 'omit';
      }
    }
  }

  async uploadVideoToCollection(collectionId: string, filePath: string, opts: UploadVideoOptions = {}): Promise<{ videoId: string; raw: unknown }> {
    const url = this.transport.url(`/collections/${pathId(collectionId, 'collection_id')}/videos/upload`);
    const what = 'video upload';
    const body = await this.transport.run(
      what,
      // The whole-request deadline does not fit a large upload: the idle timeout on the socket guards it.
      { billable: true, retryTimeout: false, signal: opts.signal, timeoutMs: 2 ** 31 - 1 },
      (signal) =>
        multipartExchange({
          url,
          headers: this.transport.authHeaders(),
          field: 'file',
          filePath,
          signal,
          idleTimeoutMs: this.transport.config.timeoutMs,
          onProgress: opts.onProgress,
        }),
      (text) => parseJsonBody(text, what),
    );
    return { videoId: parseVideoId(body), raw: body };
  }

  async getVideoStatus(videoId: string, opts: CallOptions = {}): Promise<VideoStatus> {
    const body = await this.transport.request({ method: 'GET', path: `/videos/${pathId(videoId, 'video_id')}/status`, what: 'video status', billable: false, retryTimeout: true, ...opts });
    return parseVideoStatus(body, videoId);
  }

  /** Polls until completed or failed. Unknown statuses are reported through onProgress and polled on. */
  pollAsyncTask(requestId: string, opts: PollOptions<AsyncStatus> = {}): Promise<AsyncStatus> {
    return pollUntil(
      (signal) => this.getAsyncStatus(requestId, { signal }),
      (s) => s.status === 'completed' || s.status === 'failed',
      (s) => `task ${requestId} is ${s?.rawStatus ?? s?.status ?? 'not answered'}`,
      opts,
    );
  }

  /** Polls until processed or failed, with the service's progress passed on. */
  pollVideoStatus(videoId: string, opts: PollOptions<VideoStatus> = {}): Promise<VideoStatus> {
    return pollUntil(
      (signal) => this.getVideoStatus(videoId, { signal }),
      (s) => s.status === 'processed' || s.status === 'failed',
      (s) => `video ${videoId} is ${s?.rawStatus ?? s?.status ?? 'not answered'}`,
      opts,
    );
  }
}

export function createServiceClient(config: ServiceConfig): ServiceClient {
  return new ServiceClient(config);
}
