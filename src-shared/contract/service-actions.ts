import { z } from 'zod';
import { method, voidSchema } from './define';
import { safeText } from './safe-strings';
import { segmentTagSchema } from './search';

/** A video the service fetches itself: http(s) only, no credentials in the address. */
export const videoUrlSchema = safeText(4096)
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) address without a user name or password');

/** The renderer's name for one Add by URL while it runs, so it can be cancelled. */
const attemptId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'an attempt id is 8-64 letters, digits, - or _');

/**
 * The most one Add by URL may take, from the first read of the address to the clip in the
 * catalog: the service's async fallback is otherwise polled for up to 30 min, and an address that
 * answers Reelscout but stalls the service's own download would keep the editor waiting that long.
 * The UI shows what is left of it beside Cancel.
 */
export const ADD_BY_URL_LIMIT_MS = 10 * 60_000;

/** Calls an editor makes on demand, beside the indexing pipeline. */
export const serviceActionsMethods = {
  /**
   * "Add by URL": footage that lives at an address (a review link, a bucket). Main reads the
   * address's header (https only; this computer only when Reelscout was started to allow it;
   * video files, not playlists), the service embeds and tags it from the address (sync, the async
   * counterpart on 504), and it is catalogued as a remote clip, searchable beside local ones, with
   * a poster and filmstrip made from range requests. `bytesRead`: what main read of the address.
   * The whole of it ends within ADD_BY_URL_LIMIT_MS (`timeout`, nothing added).
   */
  'library.addUrl': method(
    z.object({ url: videoUrlSchema, name: safeText(200).trim().min(1).optional(), attempt: attemptId.optional() }).strict(),
    z.object({
      clipId: z.number().int(),
      via: z.enum(['sync', 'async']),
      segments: z.number().int(),
      tags: z.array(segmentTagSchema),
      stillsError: z.string().nullable(),
      bytesRead: z.number().int(),
    }),
  ),
  /** The limit main holds each Add by URL to (ADD_BY_URL_LIMIT_MS unless started otherwise): the UI counts it down from its start. */
  'library.addUrlLimit': method(voidSchema, z.object({ limitMs: z.number().int().positive() })),
  /** Stops the Add by URL named `attempt` (its reads, its wait on the service); false when none runs under that name. */
  'library.cancelAddUrl': method(z.object({ attempt: attemptId }).strict(), z.object({ cancelled: z.boolean() })),
  /**
   * "Tag this range now": the range as a small file in Base64 to synchronous tagging when it fits
   * the request limit, else as tensors (upload, async tagging, polled); the tags come back at once.
   * For a clip added by URL main first reads the range from the address (range requests):
   * `bytesRead` is how much; null for a clip on a drive.
   */
  'viewer.tagRange': method(
    z.object({ clipId: z.number().int().positive(), startS: z.number().min(0), endS: z.number().positive() }).strict().refine((a) => a.endS > a.startS, 'Out must come after In'),
    z.object({ tags: z.array(segmentTagSchema), via: z.enum(['base64', 'tensor']), bytes: z.number().int(), bytesRead: z.number().int().nullable() }),
  ),
} as const;
