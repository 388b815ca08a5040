import type { VideoAnalysis } from './analysis';
import type { KeySpec } from './config';

export interface KeyRecord extends KeySpec {
  used: number;
  /** Admitted request times within the rate window. */
  window: number[];
  /** Arrival time (ms, sub-ms resolution) of every authenticated request. */
  timestamps: number[];
}

export type TensorRole = 'video_input' | 'audio_input' | 'video_kwargs';

export interface TensorRecord {
  storageKey: string;
  role: TensorRole;
  service: 'embedding' | 'tagging';
  requestId: string;
  /** The content hash of the upload that made it (a submission's content is what its keys hold). */
  contentHash: string;
  /** Video tensors: the statistics, or why the tensor cannot be read as video. */
  analysis?: VideoAnalysis;
  problem?: string;
}

export interface UploadRecord {
  requestId: string;
  contentHash: string;
  keys: Partial<Record<TensorRole, string>>;
}

export type Outcome = { ok: true; analysis: VideoAnalysis } | { ok: false; message: string };

export interface TaskRecord {
  id: string;
  kind: 'embedding' | 'tagging';
  createdAt: number;
  pendingMs: number;
  processingMs: number;
  outcome?: Outcome;
}

export interface CollectionRecord {
  id: string;
  name: string;
  description: string;
  createdAt: string;
}

export interface VideoRecord {
  id: string;
  collectionId: string;
  filename?: string;
  size: number;
  createdAt: number;
  uploadedMs: number;
  processingMs: number;
  outcome?: Outcome;
}

export interface EndpointStats {
  requests: number;
  statuses: Record<string, number>;
}

export interface EmulatorStats {
  totalRequests: number;
  byEndpoint: Record<string, EndpointStats>;
  injected: Record<string, number>;
  /** Requests that carried both X-API-Key and Authorization (a client should send one). */
  bothAuthHeaders: number;
  authHeaderForms: { 'x-api-key': number; bearer: number };
  tensorUploads: number;
  /** The same request_id uploaded again with the same content. */
  duplicateTensorUploads: number;
  /** The same request_id uploaded again with different content. */
  conflictingTensorUploads: number;
  taskSubmissions: number;
  /** A task submitted again with the same storage keys (or the same video_url) and kind. */
  duplicateTaskSubmissions: number;
  /** Successful encode_text calls per text. */
  textEncodes: Record<string, number>;
  /** Successful sync encode_video calls and accepted async submissions, per video_url. */
  videoUrlEncodes: Record<string, number>;
  /** Requests in arrival order (capped at LOG_CAP): arrival time, the key presented ('' if none), route, final status. */
  requestLog: Array<{ t: number; key: string; endpoint: string; status: number }>;
  keys: Record<string, { qps: number | null; quota: number | null; used: number; timestamps: number[] }>;
}

export const LOG_CAP = 100_000;

/**
 * One tensor upload or task submission the emulator carried out (billed), for tests that count
 * re-sends; read through `sends()` or `GET /__admin/sends`, never part of the spec's interface.
 */
export interface SendRecord {
  /** Arrival, on the clock of `requestLog`. */
  t: number;
  what: 'upload' | 'embedding' | 'tagging';
  /**
   * The client-chosen request_id: the upload's own; for a tensor-mode submission the one its
   * video tensor was uploaded with (the spec's "client-chosen task identifier"); null for a
   * submission by video_url, which carries none.
   */
  requestId: string | null;
  /** What was asked for: an upload's content hash; a submission's kind and the content behind its keys (or its video_url). */
  content: string;
}

/** Sends of one kind, counted per content and per request_id. */
export interface SendCounts {
  sends: number;
  /** Distinct contents: what a client that never sends twice would have sent. */
  contents: number;
  /** Another send of content already sent, under a request_id it was already sent with. */
  sameIdResends: number;
  /** Content already sent, sent again under a request_id it had not been sent with. */
  newIdResends: number;
}

/** Counts per kind of send: uploads, and submissions (embedding and tagging together). */
export function countSends(sends: readonly SendRecord[]): { uploads: SendCounts; submissions: SendCounts } {
  const count = (of: readonly SendRecord[]): SendCounts => {
    const ids = new Map<string, Set<string | null>>();
    for (const s of of) ids.set(s.content, (ids.get(s.content) ?? new Set()).add(s.requestId));
    let distinctPairs = 0;
    for (const set of ids.values()) distinctPairs += set.size;
    return { sends: of.length, contents: ids.size, sameIdResends: of.length - distinctPairs, newIdResends: distinctPairs - ids.size };
  };
  return { uploads: count(sends.filter((s) => s.what === 'upload')), submissions: count(sends.filter((s) => s.what !== 'upload')) };
}

export function emptyStats(): Omit<EmulatorStats, 'keys'> {
  return {
    totalRequests: 0,
    byEndpoint: {},
    injected: {},
    bothAuthHeaders: 0,
    authHeaderForms: { 'x-api-key': 0, bearer: 0 },
    tensorUploads: 0,
    duplicateTensorUploads: 0,
    conflictingTensorUploads: 0,
    taskSubmissions: 0,
    duplicateTaskSubmissions: 0,
    textEncodes: {},
    videoUrlEncodes: {},
    requestLog: [],
  };
}

/** Everything the service would hold; lives as long as the emulator object, across suspend/resume. */
export class EmulatorState {
  readonly keys = new Map<string, KeyRecord>();
  readonly tensors = new Map<string, TensorRecord>();
  readonly uploads = new Map<string, UploadRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  readonly submissions = new Map<string, number>();
  readonly collections = new Map<string, CollectionRecord>();
  readonly videos = new Map<string, VideoRecord>();
  stats = emptyStats();
  /** Every upload and submission carried out, in order (cleared with the stats). */
  sends: SendRecord[] = [];
  private counter = 0;

  nextId(prefix: string): string {
    this.counter++;
    return `${prefix}-${this.counter.toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`;
  }

  setKey(spec: KeySpec & { used?: number }): KeyRecord {
    const existing = this.keys.get(spec.key);
    const rec: KeyRecord = existing ?? { ...spec, used: 0, window: [], timestamps: [] };
    rec.qps = spec.qps;
    rec.quota = spec.quota;
    if (spec.used !== undefined) rec.used = spec.used;
    this.keys.set(spec.key, rec);
    return rec;
  }

  clearData(): void {
    this.tensors.clear();
    this.uploads.clear();
    this.tasks.clear();
    this.submissions.clear();
    this.collections.clear();
    this.videos.clear();
  }

  clearStats(): void {
    this.stats = emptyStats();
    this.sends = [];
    for (const k of this.keys.values()) {
      k.timestamps = [];
      k.window = [];
    }
  }

  snapshotStats(): EmulatorStats {
    const keys: EmulatorStats['keys'] = {};
    for (const k of this.keys.values()) keys[k.key] = { qps: k.qps, quota: k.quota, used: k.used, timestamps: [...k.timestamps] };
    return { ...structuredClone(this.stats), keys };
  }
}
