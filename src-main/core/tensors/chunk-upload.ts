import { AppError } from '../../../src-shared/errors';
import type { TensorChunk } from './shot-chunks';
import { encodeFloat32Tensor, encodeUint8Tensor, type TensorDescriptor } from './tensor-codec';
import type { TensorProfile } from './tensor-profile';
import type { VideoKwargs } from './video-kwargs';

export type TensorService = 'embedding' | 'tagging';

/** Body of POST /files/upload/tensors for one chunk. */
export interface TensorUploadBody {
  service: TensorService;
  request_id: string;
  video_input: TensorDescriptor;
  audio_input?: TensorDescriptor;
  video_kwargs?: VideoKwargs;
}

/**
 * Request id of one chunk for one service: readable, deterministic, URL-safe. The profile id is
 * part of it, so a profile change never reuses an old task; the time range is part of it, so the
 * two halves of a split chunk (same index) still differ. `attempt` distinguishes a deliberate
 * re-submission after a failed task from a retry of the same request.
 */
export function chunkRequestId(
  profile: TensorProfile,
  service: TensorService,
  clipKey: string | number,
  chunk: Pick<TensorChunk, 'shotId' | 'chunkIndex' | 'startS' | 'endS'>,
  attempt = 0,
): string {
  const clip = String(clipKey).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const range = `${Math.round(chunk.startS * 1000)}-${Math.round(chunk.endS * 1000)}`;
  const base = `${profile.id}.${service}.${clip}.s${chunk.shotId}.c${chunk.chunkIndex}.${range}`;
  return (attempt > 0 ? `${base}.r${attempt}` : base).replace(/[^A-Za-z0-9._+-]/g, '_');
}

/**
 * Embedding takes video + audio, tagging takes video + video_kwargs (the spec's "per service").
 * Encoding happens here, at upload time, so the pipeline holds raw typed arrays (1x) rather than
 * base64 text (1.33x) while chunks wait for the network.
 */
export function chunkUploadBody(chunk: TensorChunk, service: TensorService, requestId: string): TensorUploadBody {
  if (chunk.video.length === 0) throw new AppError('invalid', `chunk ${chunk.chunkIndex} of shot ${chunk.shotId} has no frames`);
  const video_input = encodeUint8Tensor(chunk.video, chunk.videoShape);
  if (service === 'embedding') {
    return { service, request_id: requestId, video_input, audio_input: encodeFloat32Tensor(chunk.audio, chunk.audioShape) };
  }
  return { service, request_id: requestId, video_input, video_kwargs: chunk.videoKwargs };
}
