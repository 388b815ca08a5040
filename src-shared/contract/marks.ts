import { z } from 'zod';
import { method, okSchema } from './define';
import { safeText } from './safe-strings';

/** Favourite or reject, as Final Cut rates; null clears. */
export const RATINGS = ['favorite', 'reject'] as const;
export const ratingSchema = z.enum(RATINGS).nullable();
export type Rating = z.infer<typeof ratingSchema>;

/** What the Library and search filter on: a rating, "unrated", or anything rated. */
export const RATING_FILTERS = ['favorite', 'reject', 'unrated', 'not_rejected'] as const;
export const ratingFilterSchema = z.enum(RATING_FILTERS);
export type RatingFilter = z.infer<typeof ratingFilterSchema>;

export const frameRateSchema = z.object({ num: z.number().int().positive(), den: z.number().int().positive() });

/** A free keyword: one line, trimmed, what an editor types in a bin's keyword column. */
export const keywordSchema = safeText(60).trim().min(1);

export const rangeSchema = z.object({
  id: z.number().int(),
  clipId: z.number().int(),
  clipName: z.string(),
  /** Frames from the file's first frame at `rate`; out is exclusive (the first frame not used). */
  inFrame: z.number().int().min(0),
  outFrame: z.number().int().positive(),
  rate: frameRateSchema,
  name: z.string(),
  note: z.string(),
  rating: ratingSchema,
  keywords: z.array(z.string()),
  createdAt: z.number(),
});
export type Range = z.infer<typeof rangeSchema>;

export const clipMarksSchema = z.object({
  clipId: z.number().int(),
  rating: ratingSchema,
  keywords: z.array(z.string()),
  ranges: z.array(rangeSchema),
});
export type ClipMarks = z.infer<typeof clipMarksSchema>;

/** Clips and ranges a batch action applies to (Library multi-select, a range in the viewer). */
const targetsSchema = z
  .object({
    clipIds: z.array(z.number().int().positive()).max(10_000).default([]),
    rangeIds: z.array(z.number().int().positive()).max(10_000).default([]),
  })
  .strict();

const rangeFields = {
  name: safeText(200).trim().min(1),
  note: safeText(4000, { multiline: true }).default(''),
};

export const marksMethods = {
  'marks.forClip': method(z.object({ clipId: z.number().int().positive() }).strict(), clipMarksSchema),
  'marks.rate': method(targetsSchema.extend({ rating: ratingSchema }).strict(), z.object({ updated: z.number().int() })),
  'marks.addKeywords': method(targetsSchema.extend({ keywords: z.array(keywordSchema).min(1).max(50) }).strict(), z.object({ updated: z.number().int() })),
  'marks.removeKeyword': method(targetsSchema.extend({ keyword: keywordSchema }).strict(), z.object({ updated: z.number().int() })),
  /** Saves In/Out as a named range (subclip). */
  'marks.saveRange': method(
    z
      .object({
        clipId: z.number().int().positive(),
        inFrame: z.number().int().min(0),
        outFrame: z.number().int().positive(),
        rate: frameRateSchema,
        ...rangeFields,
        rating: ratingSchema.default(null),
        keywords: z.array(keywordSchema).max(50).default([]),
      })
      .strict()
      .refine((r) => r.outFrame > r.inFrame, 'Out must come after In'),
    rangeSchema,
  ),
  'marks.updateRange': method(
    z.object({ rangeId: z.number().int().positive(), name: rangeFields.name.optional(), note: rangeFields.note.optional() }).strict(),
    rangeSchema,
  ),
  'marks.deleteRange': method(z.object({ rangeId: z.number().int().positive() }).strict(), okSchema),
  /** Every keyword in the catalog with how many clips and ranges carry it, for the filter menus. */
  'marks.keywords': method(z.object({}).strict(), z.object({ keywords: z.array(z.object({ keyword: z.string(), count: z.number().int() })) })),
} as const;
