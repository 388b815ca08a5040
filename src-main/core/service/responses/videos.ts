import { firstString, looseRecord, notUnderstood, requiredId, stateKey, VIDEO_ID_KEYS } from './read-body';

/** The answers of a collection's video endpoints: an uploaded video's id and its processing status. */

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
