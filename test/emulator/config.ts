import fs from 'node:fs';
import { z } from 'zod';
import { TAG_VOCABULARIES } from './vocabulary';

/**
 * Every knob of the emulator. Defaults make a fast, well-behaved service; tests turn knobs through
 * startEmulator options, the CLI (--config file.json or flags) or POST /__admin/config.
 */
export const TAG_SHAPES = ['flat', 'labeled', 'segments', 'title', 'nested', 'segment-list'] as const;
export const ERROR_BODIES = ['json', 'fastapi', 'text'] as const;
export const LIST_PAGINGS = ['array', 'paged-token', 'paged-page', 'paged-next'] as const;
export const STORAGE_KEY_SHAPES = ['object', 'list'] as const;
export const TAG_RESULT_FIELDS = ['tags', 'result', 'data'] as const;
export const TASK_IDS = ['generated', 'upload-request-id'] as const;

const rate = z.number().min(0).max(1);

export const emulatorConfigSchema = z.object({
  /** 413 above this many request-body bytes, counted while the body streams in. */
  maxBodyBytes: z.number().int().positive(),
  latencyMs: z.number().min(0),
  latencyJitterMs: z.number().min(0),
  /** Added after the work, before a success answer: the way back, during which the service has acted and the client knows nothing yet. */
  answerLatencyMs: z.number().min(0),
  /** Probability of answering a model-service request with this status instead of serving it. */
  failureRates: z.object({ 429: rate, 500: rate, 502: rate, 504: rate }).partial(),
  /** Route names (e.g. "POST /video_embedding/encode_text") the failure rates apply to; empty = all. */
  failureEndpoints: z.array(z.string()),
  failureSeed: z.number().int(),
  /** Retry-After seconds on injected 429s; null sends none. Real QPS 429s always send one. */
  injectedRetryAfterSeconds: z.number().int().min(0).nullable(),
  /** A sync call whose processing exceeds this answers 504. */
  syncTimeoutMs: z.number().min(0),
  /** Simulated processing time of sync encode_video / video_tagging, added to the real decode. */
  syncProcessingMs: z.number().min(0),
  embeddingDim: z.number().int().min(1).max(8192),
  tagShape: z.enum(TAG_SHAPES),
  /** How tag values are spelled (the spec does not show them): see vocabulary.ts. */
  tagVocabulary: z.enum(TAG_VOCABULARIES),
  /** Field of a completed tagging task that carries the tags (the spec does not name it). */
  tagResultField: z.enum(TAG_RESULT_FIELDS),
  errorBody: z.enum(ERROR_BODIES),
  listPaging: z.enum(LIST_PAGINGS),
  listPageSize: z.number().int().min(1),
  storageKeysShape: z.enum(STORAGE_KEY_SHAPES),
  asyncPendingMs: z.number().min(0),
  asyncProcessingMs: z.number().min(0),
  /** Probability that an async task ends in failed with an error_message. */
  asyncFailureRate: rate,
  /** error_message of those failed tasks (free text in the spec): e.g. "model timeout", "could not decode the video tensor". */
  asyncFailureMessage: z.string().min(1),
  videoUploadedMs: z.number().min(0),
  videoProcessingMs: z.number().min(0),
  /** The 402 switch: every billable call answers 402 while set. */
  quotaExceeded: z.boolean(),
  /** Body field of base64 video data in sync tagging (not named by the spec). */
  base64Field: z.string().min(1),
  /** Hosts whose http(s) video_url the emulator fetches; file:// URLs are always allowed. */
  allowedUrlHosts: z.array(z.string()),
  topKMax: z.number().int().min(1),
  /** Status of a collection search whose top_k is above topKMax: 400 "top_k must be at most N" or 422 (FastAPI-like). */
  topKErrorStatus: z.union([z.literal(400), z.literal(422)]),
  /** Collection search hits: one per video, or one per segment (a video_id several times, each with its times). */
  collectionHits: z.enum(['video', 'segment']),
  /** Frames decoded per video (URL, base64 and upload modes). */
  decodeFrames: z.number().int().min(1).max(64),
  /**
   * The request_id a tensor-mode task is known by: one the service makes up, or the request_id its
   * video tensor was uploaded with (the spec calls that a "client-chosen task identifier" and does
   * not say whether the task takes it). Either way a second submit of the same keys is a second
   * task, done and charged again.
   */
  taskIds: z.enum(TASK_IDS),
});

export type EmulatorConfig = z.infer<typeof emulatorConfigSchema>;

export const DEFAULT_CONFIG: EmulatorConfig = {
  maxBodyBytes: 200 * 1024 * 1024,
  latencyMs: 0,
  latencyJitterMs: 0,
  answerLatencyMs: 0,
  failureRates: {},
  failureEndpoints: [],
  failureSeed: 1,
  injectedRetryAfterSeconds: null,
  syncTimeoutMs: 30_000,
  syncProcessingMs: 0,
  embeddingDim: 512,
  tagShape: 'labeled',
  tagVocabulary: 'snake',
  tagResultField: 'tags',
  errorBody: 'json',
  listPaging: 'array',
  listPageSize: 20,
  storageKeysShape: 'object',
  asyncPendingMs: 40,
  asyncProcessingMs: 80,
  asyncFailureRate: 0,
  asyncFailureMessage: 'processing failed (injected by asyncFailureRate)',
  videoUploadedMs: 50,
  videoProcessingMs: 200,
  quotaExceeded: false,
  base64Field: 'video_base64',
  allowedUrlHosts: ['127.0.0.1', 'localhost', '[::1]'],
  topKMax: 100,
  topKErrorStatus: 422,
  collectionHits: 'video',
  decodeFrames: 8,
  taskIds: 'generated',
};

export const partialConfigSchema = emulatorConfigSchema.partial().strict();

export function mergeConfig(base: EmulatorConfig, patch: unknown): EmulatorConfig {
  const p = partialConfigSchema.parse(patch);
  const merged = { ...base, ...p };
  if (p.failureRates) merged.failureRates = { ...base.failureRates, ...p.failureRates };
  return emulatorConfigSchema.parse(merged);
}

export interface KeySpec {
  key: string;
  /** null: no rate limit. */
  qps: number | null;
  /** null: unlimited. Counts successful billable calls. */
  quota: number | null;
}

/** KEY[:QPS[:QUOTA]]; an empty QPS ("k::50") means unlimited. */
export function parseKeySpec(spec: string): KeySpec {
  const parts = spec.split(':');
  const key = parts[0] ?? '';
  if (!key || parts.length > 3) throw new Error(`bad --api-key ${spec}: expected KEY[:QPS[:QUOTA]]`);
  const num = (s: string | undefined, what: string): number | null => {
    if (s === undefined || s === '') return null;
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`bad ${what} in --api-key ${spec}`);
    return n;
  };
  const quota = num(parts[2], 'QUOTA');
  if (quota !== null && !Number.isInteger(quota)) throw new Error(`QUOTA must be an integer in --api-key ${spec}`);
  return { key, qps: num(parts[1], 'QPS'), quota };
}

export const keyPatchSchema = z
  .object({
    key: z.string().min(1),
    qps: z.number().positive().nullable().optional(),
    quota: z.number().int().min(0).nullable().optional(),
    used: z.number().int().min(0).optional(),
  })
  .strict();

export function loadConfigFile(file: string): { config: unknown; keys: KeySpec[] } {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { keys, ...config } = raw;
  const list: KeySpec[] = [];
  if (Array.isArray(keys)) {
    for (const k of keys) {
      if (typeof k === 'string') list.push(parseKeySpec(k));
      else {
        const p = keyPatchSchema.parse(k);
        list.push({ key: p.key, qps: p.qps ?? null, quota: p.quota ?? null });
      }
    }
  }
  return { config, keys: list };
}
