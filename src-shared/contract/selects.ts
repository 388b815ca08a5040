import { z } from 'zod';
import { method } from './define';
import { thumbRefSchema } from './library';
import { rangeSchema } from './marks';
import { safeText } from './safe-strings';

/**
 * The Selects view: every saved range of the library in one list, with what it needs to show a
 * range as its clip does (source timecode from the clip's start timecode) and a picture.
 */
export const selectSchema = rangeSchema.extend({
  /** The clip's start timecode label (null: it counts from 00:00:00:00); In and Out are shown in it. */
  clipTimecode: z.string().nullable(),
  /** The poster of the shot the range starts in (the clip's first poster before shots exist). */
  poster: thumbRefSchema.nullable(),
});
export type Select = z.infer<typeof selectSchema>;

/**
 * A moment search found, saved as a range: its frames as the search result carries them (frames of
 * the clip's counting, [inFrame, outFrame) with Out exclusive), which are the frames its export writes.
 */
const momentSchema = z
  .object({ clipId: z.number().int().positive(), inFrame: z.number().int().min(0), outFrame: z.number().int().positive(), name: safeText(200).trim().min(1).optional() })
  .strict()
  .refine((m) => m.outFrame > m.inFrame, 'a moment ends after it starts');

export const selectsMethods = {
  /** Every live range of the library, by clip then In. The view sorts and filters them. */
  'selects.list': method(z.object({}).strict(), z.object({ selects: z.array(selectSchema) })),
  /** Search's "Save N as ranges": each moment a range of its clip; a clip that cannot be counted in frames yet is skipped, saying why. */
  'selects.saveMoments': method(
    z.object({ moments: z.array(momentSchema).min(1).max(500) }).strict(),
    z.object({ saved: z.array(rangeSchema), skipped: z.array(z.object({ clipId: z.number().int(), reason: z.string() })) }),
  ),
} as const;
