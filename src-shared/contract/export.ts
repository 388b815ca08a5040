import { z } from 'zod';
import { method } from './define';
import { safeText } from './safe-strings';

/** The files an editing application reads (README "Hand-off to an NLE" says which goes where). */
export const EXPORT_FORMATS = ['fcpxml', 'xmeml', 'edl', 'avid', 'csv', 'otio'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormatId = z.infer<typeof exportFormatSchema>;

export const EXPORT_FORMAT_LABEL: Record<ExportFormatId, string> = {
  fcpxml: 'Final Cut Pro (FCPXML)',
  xmeml: 'Premiere Pro / Resolve (FCP7 XML)',
  edl: 'EDL (CMX3600, Resolve markers)',
  avid: 'Avid Media Composer markers',
  csv: 'Spreadsheet (CSV)',
  otio: 'OpenTimelineIO (.otio)',
};

/**
 * What to hand off: whole clips, saved ranges, shots, and moments (a search result's range).
 * Items are written in this order: clips, ranges, shots, spans, each as given.
 */
export const exportSelectionSchema = z
  .object({
    clipIds: z.array(z.number().int().positive()).max(10_000).default([]),
    rangeIds: z.array(z.number().int().positive()).max(10_000).default([]),
    shotIds: z.array(z.number().int().positive()).max(10_000).default([]),
    spans: z
      .array(z.object({ clipId: z.number().int().positive(), startS: z.number().min(0), endS: z.number().positive(), name: safeText(200).optional() }).strict())
      .max(10_000)
      .default([]),
  })
  .strict();
export type ExportSelection = z.output<typeof exportSelectionSchema>;

export const exportMethods = {
  /** Builds the file in memory; the renderer saves it (a download in either transport). */
  'export.build': method(
    z.object({ format: exportFormatSchema, selection: exportSelectionSchema, title: safeText(200).trim().min(1).optional() }).strict(),
    z.object({ fileName: z.string(), mime: z.string(), text: z.string(), items: z.number().int(), skipped: z.array(z.object({ clipId: z.number().int(), reason: z.string() })) }),
  ),
} as const;
