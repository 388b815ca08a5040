import { z } from 'zod';
import { ERROR_KINDS, appErrorSchema } from '../errors';
import { method, type MethodDef } from './define';
import { absolutePathSchema, safeText } from './safe-strings';

/**
 * Where one clip stands in one service collection. The service's own video states (uploaded,
 * processing, processed, failed) are extended with the app's steps before the service has the
 * file (queued, transcoding, uploading) and with cancelled.
 */
export const COLLECTION_VIDEO_STATES = ['queued', 'transcoding', 'uploading', 'uploaded', 'processing', 'processed', 'failed', 'cancelled'] as const;
/** The service's video states a member can be in once a seat has its video id (what a team's seats share of it). */
export const VIDEO_STATES = ['uploaded', 'processing', 'processed', 'failed'] as const satisfies readonly CollectionVideoState[];
export type TeamVideoState = (typeof VIDEO_STATES)[number];
export const collectionVideoStateSchema = z.enum(COLLECTION_VIDEO_STATES);
export type CollectionVideoState = z.infer<typeof collectionVideoStateSchema>;

const collectionId = safeText(512).trim().min(1);
const clipId = z.number().int().positive();

export const collectionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** When the service last listed this collection (or when it was created here). */
  syncedAt: z.number(),
  /** Since when the service's list no longer has it (clips here are still attached), else null. */
  goneAt: z.number().nullable(),
  /** Clips of this catalog attached to it, by state group. */
  videos: z.number().int(),
  processed: z.number().int(),
  failed: z.number().int(),
  inFlight: z.number().int(),
});
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

export const collectionsListSchema = z.object({
  collections: z.array(collectionSummarySchema),
  /** 'cache': the service could not be asked (or was not asked); `error` says why. */
  source: z.enum(['service', 'cache']),
  syncedAt: z.number().nullable(),
  error: appErrorSchema.optional(),
});
export type CollectionsList = z.infer<typeof collectionsListSchema>;

export const collectionVideoSchema = z.object({
  collectionId: z.string(),
  clipId,
  fileName: z.string(),
  videoId: z.string().nullable(),
  status: collectionVideoStateSchema,
  /** 0..1 of the current step (transcode, upload or the service's processing), when known. */
  progress: z.number().min(0).max(1).nullable(),
  errorKind: z.enum(ERROR_KINDS).nullable(),
  errorMessage: z.string().nullable(),
  /** What was (or will be) sent: the original file or an H.264/AAC proxy. */
  source: z.enum(['original', 'proxy']).nullable(),
  /** Uploads started for this row; more than 1 only after an upload was interrupted before its answer. */
  uploads: z.number().int(),
  updatedAt: z.number(),
});
export type CollectionVideo = z.infer<typeof collectionVideoSchema>;

export const collectionSearchHitSchema = z.object({
  videoId: z.string(),
  /** null when the video is in the collection but was not uploaded from this catalog. */
  clipId: clipId.nullable(),
  fileName: z.string().nullable(),
  similarity: z.number(),
  /** 1-based position in the service's answer, sorted by similarity. */
  rank: z.number().int().positive(),
  /** The matching moment when the service names one (seconds); null for a whole-video hit. */
  startS: z.number().nullable(),
  endS: z.number().nullable(),
});
export type CollectionSearchHit = z.infer<typeof collectionSearchHitSchema>;

export const attachArgsSchema = z
  .object({
    collectionId,
    clipIds: z.array(clipId).min(1).max(100_000).optional(),
    /** Every catalogued clip under this folder. */
    folder: absolutePathSchema.optional(),
  })
  .strict()
  .refine((a) => (a.clipIds === undefined) !== (a.folder === undefined), 'give either clipIds or folder');

export const collectionsMethods = {
  'collections.list': method(z.object({ refresh: z.boolean().default(false) }).strict(), collectionsListSchema),
  'collections.create': method(
    z.object({ name: safeText(200).trim().min(1), description: safeText(2000, { multiline: true }).trim().default('') }).strict(),
    collectionSummarySchema,
  ),
  'collections.attach': method(
    attachArgsSchema,
    z.object({
      /** Rows (re)queued for upload. */
      queued: z.number().int(),
      /** Clips already in the collection (uploading, uploaded or processed): left alone. */
      already: z.number().int(),
      clipIds: z.array(clipId),
    }),
  ),
  'collections.videos': method(z.object({ collectionId }).strict(), z.object({ collectionId: z.string(), videos: z.array(collectionVideoSchema) })),
  'collections.cancel': method(
    z.object({ collectionId, clipIds: z.array(clipId).min(1).optional() }).strict(),
    z.object({ cancelled: z.number().int() }),
  ),
  /**
   * Takes clips out of the collection as this catalog (and, joined, the team) lists it. The service
   * keeps the video (the spec has no delete of a collection's videos); work still open stops.
   */
  'collections.remove': method(z.object({ collectionId, clipIds: z.array(clipId).min(1).max(100_000) }).strict(), z.object({ removed: z.number().int() })),
  'collections.search': method(
    z.object({ collectionId, text: safeText(1000).trim().min(1), topK: z.number().int().min(1).max(100).default(10) }).strict(),
    z.object({ results: z.array(collectionSearchHitSchema), unmapped: z.number().int() }),
  ),
} as const satisfies Record<string, MethodDef>;

export const collectionsEvents = {
  /** One clip's row changed (state, progress, failure). */
  'collections.video': collectionVideoSchema,
  /** The list (or a count in it) changed. */
  'collections.changed': collectionsListSchema,
} as const satisfies Record<string, z.ZodType>;
