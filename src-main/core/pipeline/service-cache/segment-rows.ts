import type { StorageKeys } from '../../service/responses/storage-keys';
import type { TensorService } from '../../tensors/chunk-upload';

/** Rows of the service cache (migration 0004) as the pipeline reads them. */
export interface SegmentRow {
  id: number;
  clip_id: number;
  shot_id: number;
  chunk_idx: number;
  part: string;
  /** Presentation times of its first frame and of the end of its last. */
  start_s: number;
  end_s: number;
  /** Decoded frame numbers, [start_frame, end_frame): Out exclusive, as `shots` (migration 0052); null for a shot without frames. */
  start_frame: number | null;
  end_frame: number | null;
  profile_id: string;
  frames: number | null;
  budget: number | null;
  content_sha: string | null;
}

export interface UploadRow {
  id: number;
  segment_id: number;
  service: TensorService;
  request_id: string;
  region: string;
  storage_keys_json: string | null;
  uploaded_at: number | null;
  sends: number;
}

/**
 * A task as stored: the service's own statuses (pending, processing, unknown, failed) as the client
 * parsed them, plus the pipeline's `submitting` (intent written before the call) and `done` (the
 * result is stored: the app's one word for finished; the service says `completed`).
 */
export type TaskStatus = 'submitting' | 'pending' | 'processing' | 'done' | 'failed' | 'unknown';

export interface TaskRow {
  id: number;
  segment_id: number;
  kind: TensorService;
  region: string;
  task_id: string | null;
  upload_request_id: string | null;
  status: TaskStatus;
  error_message: string | null;
  sends: number;
  resubmits: number;
  polled_at: number | null;
  submitted_at: number | null;
  finished_at: number | null;
}

/** The keys a submit needs, as recorded after an upload answered. */
export interface StoredKeys {
  video_input_key?: string;
  audio_input_key?: string;
  video_kwargs_key?: string;
}

export function storedKeysOf(k: StorageKeys): StoredKeys {
  const out: StoredKeys = {};
  if (k.videoInputKey) out.video_input_key = k.videoInputKey;
  if (k.audioInputKey) out.audio_input_key = k.audioInputKey;
  if (k.videoKwargsKey) out.video_kwargs_key = k.videoKwargsKey;
  return out;
}

export function parseStoredKeys(json: string | null): StoredKeys | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as StoredKeys;
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

/** A chunk as planned, ready to be written as a segment with its two upload rows. */
export interface PlannedSegment {
  chunkIdx: number;
  part: string;
  startS: number;
  endS: number;
  frames: number;
  contentSha: string;
  requestIds: Record<TensorService, string>;
}

export const SERVICES: readonly TensorService[] = ['embedding', 'tagging'];
