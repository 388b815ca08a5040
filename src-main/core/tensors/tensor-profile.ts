import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';

/**
 * The one place that says what a tensor looks like on the wire. The service interface does not
 * show frame size, frame rate, frame count or audio rate, so every such choice lives here under a
 * name: when the real service's expectations are known, a new profile is added and nothing else
 * changes. The id goes into every request id, so results made with different profiles never mix.
 */
import { FIT_MODES } from '../media/frame-geometry';

export const tensorProfileSchema = z.object({
  /** Named, stable; part of request ids and of stored analysis rows. */
  id: z.string().regex(/^[A-Za-z0-9._+-]{1,64}$/, 'profile id: letters, digits, . _ + - only'),
  /** Frames sampled per second of shot, on a fixed grid from the decoded range start. */
  fps: z.number().positive().max(30),
  /** Most frames one tensor (one upload, one embedding) may carry. */
  maxFramesPerTensor: z.number().int().min(1).max(1024),
  frameWidth: z.number().int().min(16).max(1024),
  frameHeight: z.number().int().min(16).max(1024),
  /**
   * letterbox: the whole picture, scaled to fit, centred on black bars.
   * center-crop: scaled to cover, edges cut. See tensor-profile docs for the choice.
   */
  fit: z.enum(FIT_MODES),
  audioSampleRate: z.number().int().min(8000).max(48000),
  /** Largest JSON body (base64 tensors + kwargs + envelope) one upload may have, in bytes. */
  byteBudget: z.number().int().min(64 * 1024),
});

export type TensorProfile = z.infer<typeof tensorProfileSchema>;

/**
 * Default profile. Why these values:
 * - 224x224: the input size of most video/image encoders (CLIP-style, ViT-B), so the service can
 *   use frames without resampling; 150 KB per frame keeps uploads small.
 * - letterbox, not centre crop: shot size, composition and camera-movement tags depend on the whole
 *   frame; a 16:9 centre crop to a square cuts 44% of the picture, often the very person at the edge
 *   of a wide shot. The black bars cost pixels but lose no content, and the content box is sent in
 *   video_kwargs so the service (or a later profile) can ignore the bars.
 * - 2 fps: enough to follow action within a shot for embeddings; a 5 s shot is 10 frames.
 * - 16 frames (8 s) per tensor: embeddings map back to segments of at most 8 s, and one tensor
 *   (16 x 196 KB base64 video + 8 s of 16 kHz float32 audio) stays under the 4 MiB budget.
 * - 16 kHz mono: the usual rate of speech/audio encoders; float32 as the spec shows.
 * - 4 MiB: the spec does not say where 413 starts; 4 MiB passes common gateway limits (often
 *   5-10 MB) with margin. On a 413 the pipeline splits a chunk further (see splitChunk).
 */
export const DEFAULT_TENSOR_PROFILE: TensorProfile = Object.freeze({
  id: 'rs-v1-224-2fps',
  fps: 2,
  maxFramesPerTensor: 16,
  frameWidth: 224,
  frameHeight: 224,
  fit: 'letterbox',
  audioSampleRate: 16_000,
  byteBudget: 4 * 1024 * 1024,
});

const PARAM_KEYS = ['fps', 'maxFramesPerTensor', 'frameWidth', 'frameHeight', 'fit', 'audioSampleRate', 'byteBudget'] as const;

/**
 * A profile from the default plus overrides (settings, tests). Changing any parameter without
 * naming the result gets a derived id (base id + hash of the parameters), so a tweaked profile can
 * never be mistaken for the named one in request ids or stored rows.
 */
export function createTensorProfile(overrides: Partial<TensorProfile> = {}, base: TensorProfile = DEFAULT_TENSOR_PROFILE): TensorProfile {
  const merged = { ...base, ...overrides };
  const changed = PARAM_KEYS.some((k) => merged[k] !== base[k]);
  if (changed && overrides.id === undefined) {
    const digest = createHash('sha256')
      .update(JSON.stringify(PARAM_KEYS.map((k) => merged[k])))
      .digest('hex')
      .slice(0, 8);
    merged.id = `${base.id}+${digest}`;
  }
  const parsed = tensorProfileSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('invalid', `tensor profile: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`);
  }
  return Object.freeze(parsed.data);
}

/** Raw bytes of one video frame in the profile. */
export function frameBytes(p: TensorProfile): number {
  return p.frameWidth * p.frameHeight * 3;
}
