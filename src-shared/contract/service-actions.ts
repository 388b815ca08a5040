import { z } from 'zod';
import { method } from './define';
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

/** Calls an editor makes on demand, beside the indexing pipeline. */
export const serviceActionsMethods = {
  /**
   * "Add by URL": footage that lives at an address (a review link, a bucket) is embedded and
   * tagged by the service from that address (sync, the async counterpart on 504) and catalogued
   * as a remote clip, searchable beside local ones. Nothing is downloaded.
   */
  'library.addUrl': method(
    z.object({ url: videoUrlSchema, name: safeText(200).trim().min(1).optional() }).strict(),
    z.object({ clipId: z.number().int(), via: z.enum(['sync', 'async']), segments: z.number().int(), tags: z.array(segmentTagSchema) }),
  ),
  /**
   * "Tag this range now": the range as a small file in Base64 to synchronous tagging when it fits
   * the request limit, else as tensors (upload, async tagging, polled); the tags come back at once.
   */
  'viewer.tagRange': method(
    z.object({ clipId: z.number().int().positive(), startS: z.number().min(0), endS: z.number().positive() }).strict().refine((a) => a.endS > a.startS, 'Out must come after In'),
    z.object({ tags: z.array(segmentTagSchema), via: z.enum(['base64', 'tensor']), bytes: z.number().int() }),
  ),
} as const;
