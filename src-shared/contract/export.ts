import { z } from 'zod';
import { method } from './define';
import { safeText } from './safe-strings';

/** The files an editing application reads (README "Hand-off to an NLE" says which goes where). */
export const EXPORT_FORMATS = ['fcpxml', 'xmeml', 'edl', 'avid', 'csv', 'tsv', 'otio'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormatId = z.infer<typeof exportFormatSchema>;

export const EXPORT_FORMAT_LABEL: Record<ExportFormatId, string> = {
  fcpxml: 'Final Cut Pro (FCPXML)',
  xmeml: 'Premiere Pro / Resolve (FCP7 XML)',
  edl: 'EDL (CMX3600, Resolve markers)',
  avid: 'Avid Media Composer markers',
  csv: 'Spreadsheet (CSV)',
  tsv: 'Tab-separated, one line per item (TSV)',
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
    /**
     * Moments (search results) as their results carry them: frames of the clip's counting,
     * [inFrame, outFrame) with Out exclusive, as shots and saved ranges count them.
     */
    spans: z
      .array(
        z
          .object({ clipId: z.number().int().positive(), inFrame: z.number().int().min(0), outFrame: z.number().int().positive(), name: safeText(200).optional() })
          .strict()
          .refine((m) => m.outFrame > m.inFrame, 'a moment ends after it starts'),
      )
      .max(10_000)
      .default([]),
  })
  .strict();
export type ExportSelection = z.output<typeof exportSelectionSchema>;

const exportArgsSchema = z.object({ format: exportFormatSchema, selection: exportSelectionSchema, title: safeText(200).trim().min(1).optional() }).strict();

export const exportFileSchema = z.object({ fileName: z.string(), mime: z.string(), text: z.string() });
export type ExportFile = z.infer<typeof exportFileSchema>;

const skippedSchema = z.array(z.object({ clipId: z.number().int(), reason: z.string() }));

const exportBuiltSchema = z.object({
  files: z.array(exportFileSchema).min(1),
  items: z.number().int(),
  skipped: skippedSchema,
  /** What the user should know: rates split into several files, or conformed on one sequence. */
  notes: z.array(z.string()),
});

/** What an export would write, before it writes: the files' names (one per rate where the format splits) and the notes. */
const exportPlanSchema = exportBuiltSchema.omit({ files: true }).extend({ fileNames: z.array(z.string()).min(1) });
export type ExportPlan = z.infer<typeof exportPlanSchema>;

export const exportMethods = {
  /** The export dialog's preview: what `export.build`/`export.save` would write for these arguments, without writing. */
  'export.plan': method(exportArgsSchema, exportPlanSchema),
  /**
   * Builds the files in memory (one, or one per frame rate for EDL and Avid marker lists); the
   * browser saves them as downloads. Named after `title`: what the selection holds.
   */
  'export.build': method(exportArgsSchema, exportBuiltSchema),
  /**
   * The desktop app's export: main builds the files and asks where to save them in the system's
   * own dialog (the path never comes from the renderer). `savedTo` lists the files written, empty
   * when the user cancelled. The web transport has no such dialog: it refuses (`files.capabilities`).
   */
  'export.save': method(
    exportArgsSchema,
    exportBuiltSchema.omit({ files: true }).extend({ savedTo: z.array(z.string()) }),
  ),
} as const;
