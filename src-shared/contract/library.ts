import { z } from 'zod';
import { proxyPolicySchema } from './settings';
import { method, voidSchema } from './define';
import { absolutePathSchema, safeText, typedPathSchema } from './safe-strings';
import { clipIndexStateSchema } from './jobs';
import { frameRateSchema, ratingFilterSchema, ratingSchema } from './marks';

/**
 * Stored states of a clip plus two that come from where its file is:
 * - pending: catalogued, not probed yet; probed: metadata known, shots/thumbnails not yet;
 * - done: metadata, shots and thumbnails (`done` is the one word for finished, as for jobs and imports); error: the file cannot be read (reason says why);
 * - unsupported: readable but not footage (audio only);
 * - offline: its volume is not connected (nothing is lost: it comes back on reconnect);
 * - missing: its volume is connected but the file is no longer at its path.
 */
export const CLIP_STATUSES = ['pending', 'probed', 'done', 'error', 'unsupported', 'offline', 'missing'] as const;
export const clipStatusSchema = z.enum(CLIP_STATUSES);
export type ClipStatus = z.infer<typeof clipStatusSchema>;

/**
 * Filters the Library view offers: one status, or a group of them. `indexed`: searchable (the
 * index stage stamped it, the Jobs view's "Indexed"); `indexing`: footage on a connected drive not
 * indexed yet.
 */
export const CLIP_FILTERS = [...CLIP_STATUSES, 'indexed', 'indexing', 'problems'] as const;
export const clipFilterSchema = z.enum(CLIP_FILTERS);
export type ClipFilter = z.infer<typeof clipFilterSchema>;

/** A file in the thumbnail cache; `path` goes to api.mediaUrl({ kind: 'thumb', path }). */
export const thumbRefSchema = z.object({
  path: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type ThumbRef = z.infer<typeof thumbRefSchema>;

/** A sprite of `frames` tiles side by side, each `width` x `height`. */
export const filmstripRefSchema = thumbRefSchema.extend({ frames: z.number().int().positive() });
export type FilmstripRef = z.infer<typeof filmstripRefSchema>;

export const clipSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Absolute path where the file was last seen. */
  path: z.string(),
  folder: z.string(),
  /** A clip added by URL: the service analysed it there; nothing is on a drive (main streams it for playback; no file hand-off, no export). */
  sourceUrl: z.string().nullable(),
  volumeId: z.number().int(),
  volumeLabel: z.string(),
  status: clipStatusSchema,
  statusReason: z.string().nullable(),
  errorKind: z.string().nullable(),
  sizeBytes: z.number(),
  mtimeMs: z.number(),
  container: z.string().nullable(),
  videoCodec: z.string().nullable(),
  audioCodec: z.string().nullable(),
  /** The container's duration; the clip ends at its last video frame (`frameCount`), which audio may outlast. */
  durationS: z.number().nullable(),
  /** Video frames: decoded (exact) once the analysis ran, the probe's count before. */
  frameCount: z.number().int().nullable(),
  /** Where the picture ends when the file decodes short of its duration (a truncated copy): a Problem, searchable for that part. */
  decodedS: z.number().nullable(),
  fps: z.number().nullable(),
  vfr: z.boolean().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  rotation: z.number().int().nullable(),
  audioChannels: z.number().int().nullable(),
  /** Start timecode label as the file carries it (tmcd track, stream or format tag); null: counts from 00:00:00:00. */
  timecode: z.string().nullable(),
  /** The rate timecode and exports count in (timecode.ts `countingOf`: the probed rate, or a standard one it is conformed to). */
  rate: frameRateSchema.nullable(),
  /** Positions are presentation times on `rate`'s grid (VFR, 12.5 fps...), not decoded frame numbers. */
  conformed: z.boolean().nullable(),
  rating: ratingSchema,
  keywords: z.array(z.string()),
  rangeCount: z.number().int(),
  shotCount: z.number().int(),
  /** Its indexing, folded from its jobs as the Jobs view folds them ('done' reads "Indexed" in both); null: no indexing work. */
  indexing: clipIndexStateSchema.nullable(),
  poster: thumbRefSchema.nullable(),
  filmstrip: filmstripRefSchema.nullable(),
  updatedAt: z.number(),
});
export type ClipSummary = z.infer<typeof clipSummarySchema>;

export const shotSchema = z.object({
  id: z.number().int(),
  idx: z.number().int(),
  startS: z.number(),
  endS: z.number(),
  startFrame: z.number().int().nullable(),
  endFrame: z.number().int().nullable(),
  cutScore: z.number().nullable(),
  /** The transition that opens this shot (null: the clip's first shot, or detected before 0013); startS is its middle. */
  transition: z.object({ kind: z.enum(['cut', 'dissolve', 'fade']), startS: z.number(), endS: z.number() }).nullable(),
  poster: thumbRefSchema.nullable(),
});
export type Shot = z.infer<typeof shotSchema>;

export const clipDetailSchema = clipSummarySchema.extend({
  fingerprint: z.string().nullable(),
  bitRate: z.number().nullable(),
  probedAt: z.number().nullable(),
  shots: z.array(shotSchema),
});
export type ClipDetail = z.infer<typeof clipDetailSchema>;

export const IMPORT_ISSUE_CODES = [
  'hidden', 'system', 'symlink_loop', 'broken_symlink', 'unreadable', 'not_regular', 'not_video', 'vanished', 'error',
] as const;

export const importIssueSchema = z.object({
  path: z.string(),
  code: z.enum(IMPORT_ISSUE_CODES),
  reason: z.string(),
});
export type ImportIssue = z.infer<typeof importIssueSchema>;

export const importSummarySchema = z.object({
  importId: z.number().int(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  /** The editor's drop or typed path, or the team library's other seats' clips found on this seat's drives. */
  origin: z.enum(['editor', 'team']),
  roots: z.array(z.string()),
  /** New clips catalogued (the pipeline's first stage probes them). */
  added: z.number().int(),
  /** Known clips whose file changed (size or date) and were re-read. */
  updated: z.number().int(),
  /** Known clips whose size and date did not change: only stat'ed. */
  unchanged: z.number().int(),
  /** Known clips found at a new path by their fingerprint (their shots and tags are kept). */
  relocated: z.number().int(),
  /** Known clips under the imported folders whose file is gone (kept, shown as missing). */
  missing: z.number().int(),
  /** Clips this import could tell are unusable as it catalogued them (a zero-byte file); what ffprobe finds is the clips' own status. */
  failed: z.number().int(),
  /** Entries left out: hidden, system, unreadable, symlink loops... (see issues). */
  skipped: z.number().int(),
  /** Files without a video extension. */
  ignored: z.number().int(),
  /** Its clips not read yet (the pipeline's probe comes after the import): "finished" only once they are. */
  reading: z.number().int(),
  /** Skipped entries and failed clips with their reason; the first few hundred. */
  issues: z.array(importIssueSchema),
  issuesTruncated: z.boolean(),
  error: z.string().nullable(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

export const volumeSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  label: z.string(),
  mountPath: z.string(),
  online: z.boolean(),
  clipCount: z.number().int(),
  lastSeenAt: z.number(),
  /** Viewing proxies for this volume's clips; null: as Settings says for all. */
  proxyPolicy: proxyPolicySchema.nullable(),
});
export type Volume = z.infer<typeof volumeSchema>;

/** Library orders; the list view's columns sort by these. */
export const CLIP_SORTS = ['path', 'name', 'added', 'duration', 'resolution', 'fps', 'codec', 'timecode', 'date', 'rating'] as const;
export type ClipSort = (typeof CLIP_SORTS)[number];
/** What one click on a column gives: longest, largest, newest first; names and codes A to Z; favourites first. */
export const CLIP_SORT_NATURAL: Record<ClipSort, 'asc' | 'desc'> = {
  path: 'asc', name: 'asc', added: 'desc', duration: 'desc', resolution: 'desc', fps: 'desc', codec: 'asc', timecode: 'asc', date: 'desc', rating: 'asc',
};

export const listArgsSchema = z
  .object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
    /** Absolute folder: clips in it and below. */
    folder: absolutePathSchema.optional(),
    status: clipFilterSchema.optional(),
    /** Substring of the file name, case-insensitive. */
    query: safeText(200).optional(),
    volumeId: z.number().int().optional(),
    sort: z.enum(CLIP_SORTS).default('path'),
    /** Reverse the sort's natural order (CLIP_SORT_NATURAL; a second click on a column). */
    reversed: z.boolean().optional(),
    rating: ratingFilterSchema.optional(),
    keyword: safeText(60).optional(),
    /** Only clips with at least one saved range (a select). */
    hasRanges: z.boolean().optional(),
  })
  .strict();

export const listResultSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  items: z.array(clipSummarySchema),
  /** Per-filter totals over the whole library, for the filter bar. */
  counts: z.object({
    all: z.number().int(),
    indexed: z.number().int(),
    indexing: z.number().int(),
    problems: z.number().int(),
    offline: z.number().int(),
  }),
});
export type ListResult = z.infer<typeof listResultSchema>;

export const relinkResultSchema = z.object({
  /** Clips found under the new folder with the same relative path and fingerprint. */
  relinked: z.number().int(),
  /** Clips under the old folder with no file at the new location. */
  notFound: z.number().int(),
  /** A file is there but its fingerprint differs: left alone. */
  mismatched: z.number().int(),
  examples: z.array(z.object({ path: z.string(), outcome: z.enum(['not_found', 'mismatched']) })),
});
export type RelinkResult = z.infer<typeof relinkResultSchema>;

const absPath = absolutePathSchema;

export const libraryMethods = {
  /** Scans the paths and catalogues new or changed videos; the pipeline probes them, then posters, shots and thumbnails follow in the background. */
  /** Paths as dropped, picked or typed (`~/` for the home folder, expanded by main). */
  'library.import': method(z.object({ paths: z.array(typedPathSchema).min(1).max(10_000) }).strict(), importSummarySchema),
  'library.list': method(listArgsSchema, listResultSchema),
  /** Every clip id the same query matches (Select all, then batch actions on all of them). */
  'library.ids': method(listArgsSchema.omit({ offset: true, limit: true }), z.object({ ids: z.array(z.number().int()) })),
  'library.get': method(z.object({ clipId: z.number().int().positive() }).strict(), clipDetailSchema),
  /** A folder moved (or a drive was copied): point its clips at the new place. */
  'library.relink': method(z.object({ fromPath: absPath, toPath: absPath }).strict(), relinkResultSchema),
  'library.volumes': method(voidSchema, z.object({ volumes: z.array(volumeSchema) })),
  /** The most recent imports, newest first, so the summary survives a restart. */
  'library.imports': method(z.object({ limit: z.number().int().min(1).max(50).default(5) }).strict(), z.object({ imports: z.array(importSummarySchema) })),
  /** Probe again and redo shots and thumbnails (after fixing a file, or a new ffmpeg). */
  'library.retry': method(z.object({ clipIds: z.array(z.number().int().positive()).min(1).max(10_000) }).strict(), z.object({ queued: z.number().int() })),
} as const;

export const importProgressSchema = z.object({
  importId: z.number().int(),
  phase: z.enum(['scanning', 'cataloguing', 'done']),
  done: z.number().int(),
  total: z.number().int(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const libraryEvents = {
  /** Clips were added, changed or went on/offline: views re-query. Other domains may emit it too. */
  'catalog.changed': z.object({ reason: z.string(), clipIds: z.array(z.number().int()).optional() }),
  'library.importProgress': importProgressSchema,
} as const;
