import { z } from 'zod';
import { frameRateSchema, ratingFilterSchema } from './marks';
import { appErrorSchema } from '../errors';
import { method, voidSchema, type MethodDef } from './define';
import { clipStatusSchema, thumbRefSchema } from './library';
import { safeText } from './safe-strings';

/** The three cinematographic tags the app filters on (the service's tag structure is open; see notes-search). */
export const TAG_FIELDS = ['shotSize', 'cameraMovement', 'shootingAngle'] as const;
export const tagFieldSchema = z.enum(TAG_FIELDS);
export type TagField = z.infer<typeof tagFieldSchema>;

/** Where a tag came from: the service's tagging, or this machine's analysis. */
export const tagSourceSchema = z.enum(['service', 'local']);
export type TagSource = z.infer<typeof tagSourceSchema>;

/** Which tags a filter reads: 'either' matches when the service's or the local tag matches. */
export const TAG_SOURCE_CHOICES = ['either', 'service', 'local'] as const;

const tagValue = safeText(100).trim().min(1);
const tagValues = z.array(tagValue).max(50);

/** People in the shot, from the local face detection (largest count in one sampled frame). */
export const PEOPLE_VALUES = ['no_people', 'one_person', 'two_people', 'group'] as const;

const tagSelection = z
  .object({
    /** Vocabulary ids (README "Tag vocabulary", e.g. "close_up"); several values of one field mean any of them. */
    shotSize: tagValues.optional(),
    cameraMovement: tagValues.optional(),
    shootingAngle: tagValues.optional(),
    people: z.array(z.enum(PEOPLE_VALUES)).max(4).optional(),
  })
  .strict();

export const tagFilterSchema = tagSelection
  .extend({
    /** Segments whose tag is one of these are left out ("not handheld"); a segment without the tag stays. */
    exclude: tagSelection.optional(),
    /** 'either' reads the one tag per field decided between the sources (notes-search, "Tags that agree"). */
    source: z.enum(TAG_SOURCE_CHOICES).default('either'),
  })
  .strict();
export type TagSelection = z.infer<typeof tagSelection>;
export const FACET_FIELDS = ['shotSize', 'cameraMovement', 'shootingAngle', 'people'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

const range = z
  .object({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() })
  .strict()
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, 'min must not exceed max');

export const DATE_FIELDS = ['modified', 'imported'] as const;

/** Every filter narrows (AND across fields); an absent field does not filter. */
export const searchFiltersSchema = z
  .object({
    tags: tagFilterSchema.optional(),
    /** Clip duration in seconds. */
    durationS: range.optional(),
    /** Clips at least this many pixels high (as displayed). */
    minHeight: z.number().int().positive().max(100_000).optional(),
    /** Absolute folder: clips in it and below. */
    folder: safeText(4096).trim().min(1).optional(),
    /** Epoch ms, inclusive; 'modified' is the file's date, 'imported' when it entered the catalog. */
    date: z
      .object({ field: z.enum(DATE_FIELDS).default('modified'), from: z.number().optional(), to: z.number().optional() })
      .strict()
      .optional(),
    clipIds: z.array(z.number().int().positive()).min(1).max(10_000).optional(),
    /** The editor's marks: a clip (or one of its ranges) rated so, or carrying the keyword. */
    rating: ratingFilterSchema.optional(),
    keyword: safeText(60).trim().min(1).optional(),
  })
  .strict();
export type SearchFiltersIn = z.input<typeof searchFiltersSchema>;
export type SearchFilters = z.output<typeof searchFiltersSchema>;

/**
 * The one tag of a field on a segment, decided between the sources ('both' when they agree;
 * notes-search "Tags that agree"); `other` is the source that lost, when they disagreed. People
 * come from the local face detection only.
 */
export const segmentTagSchema = z.object({
  field: z.enum(FACET_FIELDS),
  /** The label shown. */
  value: z.string(),
  canonical: z.string(),
  source: z.enum(['service', 'local', 'both']),
  confidence: z.number().nullable(),
  other: z.object({ canonical: z.string(), value: z.string(), source: tagSourceSchema, confidence: z.number().nullable() }).nullable(),
});
export type SegmentTag = z.infer<typeof segmentTagSchema>;

/**
 * What produced a result: the local index with a freshly encoded query ('local'), the local index
 * with a query embedding read from the cache ('cache'), or only the service's collection search
 * ('collection'). `sources` lists everything that found it.
 */
export const RESULT_SOURCES = ['local', 'cache', 'collection'] as const;
export const resultSourceSchema = z.enum(RESULT_SOURCES);
export type ResultSource = z.infer<typeof resultSourceSchema>;

/** A moment's frames: [inFrame, outFrame), Out exclusive (as shots, saved ranges and exports count them). */
const momentFramesShape = { inFrame: z.number().int().min(0), outFrame: z.number().int().positive() };

export const searchResultSchema = z.object({
  rank: z.number().int().positive(),
  /** null for a clip only the collection search found: the service does not say which moment. */
  segmentId: z.number().int().nullable(),
  clipId: z.number().int(),
  clipName: z.string(),
  clipPath: z.string(),
  clipStatus: clipStatusSchema,
  clipDurationS: z.number().nullable(),
  /** The clip's clock: times are shown as its source timecode. */
  clipRate: frameRateSchema.nullable(),
  clipTimecode: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  shotId: z.number().int().nullable(),
  /**
   * The moment, in frames of the clip's counting (clipRate): [inFrame, outFrame), Out exclusive as
   * shots count them; decoded frame numbers, or for a conformed clip (VFR) its presentation times on
   * its rate's grid. What its export writes; seconds and timecode are views of them. A collection hit
   * without a moment is the whole clip.
   */
  ...momentFramesShape,
  /**
   * Relevance 0..100 (notes-search "Relevance"): how far the query beats generic text on this very
   * moment, against the floor an unrelated query reaches in this library; 50 is the floor of a match.
   * null when nothing was scored (filters only, or the reference queries not encoded yet). Results
   * are in this order.
   */
  score: z.number().min(0).max(100).nullable(),
  /** The score shown is at least 50. */
  good: z.boolean(),
  /** The raw cosine in the local index (the service's collection similarity for a collection-only result): for the tooltip. */
  similarity: z.number(),
  source: resultSourceSchema,
  sources: z.array(resultSourceSchema),
  /** The shot's poster (or the clip's first poster). */
  thumb: thumbRefSchema.nullable(),
  tags: z.array(segmentTagSchema),
  collection: z.object({ collectionId: z.string(), videoId: z.string(), similarity: z.number() }).nullable(),
  /** Other matching ranges of the same clip, best first ("2 more in this clip"). */
  more: z.array(
    z.object({ segmentId: z.number().int().nullable(), ...momentFramesShape, score: z.number().nullable(), similarity: z.number(), thumb: thumbRefSchema.nullable() }),
  ),
  /** The same file (same fingerprint) catalogued at other paths. */
  otherLocations: z.array(z.object({ clipId: z.number().int(), clipPath: z.string() })),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/**
 * A filter read from the query's words, shown as a removable chip: a facet ("close-up", "not
 * handheld"), or a person (`@Maria`, `-@Tom`: field 'person', value the name as typed, label the
 * person's name as the catalog spells it once found).
 */
export const QUERY_CHIP_FIELDS = [...FACET_FIELDS, 'person'] as const;
export const queryChipSchema = z.object({ field: z.enum(QUERY_CHIP_FIELDS), value: z.string(), label: z.string(), negated: z.boolean(), phrase: z.string() });
export type QueryChip = z.infer<typeof queryChipSchema>;

/** Where the query vector came from. */
export const QUERY_ORIGINS = ['service', 'cache', 'segment'] as const;

/** Which results a search lists: strong matches only, matches, or everything with the line between. */
export const STRICTNESS = ['high', 'medium', 'any'] as const;
export type Strictness = (typeof STRICTNESS)[number];
/** The lowest score each strictness lists. */
export const STRICTNESS_MIN_SCORE: Readonly<Record<Strictness, number>> = { high: 75, medium: 50, any: 0 };

/**
 * Whether scores exist: 'ready' (reference queries encoded, floor measured), 'calibrating' (the
 * reference queries are being encoded: results in similarity order, unscored), 'unscored' (a listing
 * by filters only).
 */
export const RELEVANCE_STATES = ['ready', 'calibrating', 'unscored'] as const;
export const relevanceInfoSchema = z.object({
  state: z.enum(RELEVANCE_STATES),
  /** Reference queries encoded of all. */
  encoded: z.number().int(),
  total: z.number().int(),
});
export type RelevanceInfo = z.infer<typeof relevanceInfoSchema>;

export const searchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  query: z.object({
    text: z.string().nullable(),
    normalized: z.string().nullable(),
    segmentId: z.number().int().nullable(),
    origin: z.enum(QUERY_ORIGINS).nullable(),
    /** When the cached query embedding was first fetched. */
    cachedAt: z.number().nullable(),
  }),
  /**
   * Set when the search could not run: a new query while the service is unreachable (kind 'offline'),
   * no key, quota... The UI shows it; earlier queries still run from the cache.
   */
  cannotRun: appErrorSchema.nullable(),
  /** Service collection search for clips in collections: null when no collection applied. */
  collections: z
    .object({
      searched: z.array(z.string()),
      hits: z.number().int(),
      unmapped: z.number().int(),
      error: appErrorSchema.nullable(),
    })
    .nullable(),
  /** What the query's words became: the text sent to the service, and the filters read from it. */
  parsed: z.object({ text: z.string(), chips: z.array(queryChipSchema) }).nullable(),
  /** No result reaches the relevance floor: the UI says so and shows the closest ones. */
  noGoodMatch: z.boolean(),
  relevance: relevanceInfoSchema,
  /** This page of cards (one per file): more exist after it when hasMore. */
  page: z.object({ offset: z.number().int(), limit: z.number().int(), hasMore: z.boolean() }),
  stats: z.object({
    /** Segments in the index. */
    indexed: z.number().int(),
    /** Segments passing the filters; null when no filter was set. */
    allowed: z.number().int().nullable(),
    /** Moments of the `@` people listed from their faces alone, in shots the index has no segment of (not indexed yet). */
    unindexed: z.number().int().default(0),
    tookMs: z.number(),
  }),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** Cards per page: each card is one file with its moments. */
const topK = z.number().int().min(1).max(500).default(30);
/** Cards before this page ("show more" asks for the next one). */
const offset = z.number().int().min(0).max(100_000).default(0);
const strictness = z.enum(STRICTNESS).default('any');

export const facetValueSchema = z.object({
  canonical: z.string(),
  label: z.string(),
  /** Searchable segments whose one resolved tag is this value: what a filter on it finds. */
  segments: z.number().int(),
  /** Segments where each source says so (a segment can be in both): shown as a detail. */
  service: z.number().int(),
  local: z.number().int(),
});
export type FacetValue = z.infer<typeof facetValueSchema>;

export const facetsSchema = z.object({
  shotSize: z.array(facetValueSchema),
  cameraMovement: z.array(facetValueSchema),
  shootingAngle: z.array(facetValueSchema),
  people: z.array(facetValueSchema),
  /** Folders holding searchable clips, with how many such clips each holds directly. */
  folders: z.array(z.object({ path: z.string(), clips: z.number().int() })),
  durationS: z.object({ min: z.number(), max: z.number() }).nullable(),
  heights: z.array(z.number().int()),
  modified: z.object({ min: z.number(), max: z.number() }).nullable(),
  imported: z.object({ min: z.number(), max: z.number() }).nullable(),
});
export type Facets = z.infer<typeof facetsSchema>;

/** offline: no answer at all for a while; slow: it answers 5xx/timeouts (contract/service-wait.ts). */
export const SERVICE_STATES = ['online', 'slow', 'offline', 'unconfigured', 'unknown'] as const;
export const INDEX_STATES = ['loading', 'rebuilding', 'ready', 'error'] as const;

export const searchStatusSchema = z.object({
  service: z.object({
    state: z.enum(SERVICE_STATES),
    /** The last failure that made it offline or unusable. */
    error: appErrorSchema.nullable(),
    checkedAt: z.number().nullable(),
    /** A call someone waits for is being tried again: since when, how often, until when, and why. */
    waiting: z
      .object({ since: z.number(), attempts: z.number().int(), deadlineAt: z.number(), error: appErrorSchema })
      .nullable(),
    /**
     * The last answer came from the project's service emulator (test/emulator), a test double that
     * says so in a header a real service does not send: its search follows colours and tags, not
     * meaning, and the UI says so.
     */
    emulator: z.boolean(),
  }),
  index: z.object({
    state: z.enum(INDEX_STATES),
    size: z.number().int(),
    dimension: z.number().int(),
    model: z.string(),
    region: z.string(),
    /** 'loaded' from disk, or rebuilt from the catalog (and why). */
    origin: z.string().nullable(),
    error: z.string().nullable(),
  }),
  cachedQueries: z.number().int(),
  relevance: relevanceInfoSchema,
});
export type SearchStatus = z.infer<typeof searchStatusSchema>;

export const cachedQuerySchema = z.object({
  text: z.string(),
  normalized: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number(),
  uses: z.number().int(),
});
export type CachedQuery = z.infer<typeof cachedQuerySchema>;

export const searchMethods = {
  /** Text query: encoded by the service (or read from the query cache), then the local index, filters and collection search. */
  'search.text': method(
    z
      .object({
        /**
         * What the editor typed. Empty (or only camera and people words) lists what passes the
         * filters, unscored, in library order: facets browse alone.
         */
        text: safeText(1000).trim(),
        topK,
        offset,
        strictness,
        filters: searchFiltersSchema.default({}),
        /** Also run the service's search in collections holding catalogued clips. */
        collections: z.boolean().default(true),
      })
      .strict(),
    searchResponseSchema,
  ),
  /** Segments nearest to one segment's stored embedding: works offline. */
  'search.similar': method(
    z
      .object({
        segmentId: z.number().int().positive(),
        topK,
        offset,
        strictness,
        filters: searchFiltersSchema.default({}),
        /** Left out by default: the source's own neighbourhood (its clip within 30 s); or its whole clip; or nothing. */
        exclude: z.enum(['neighbourhood', 'clip', 'none']).default('neighbourhood'),
      })
      .strict(),
    searchResponseSchema,
  ),
  /** The values the filter bar offers. */
  'search.facets': method(voidSchema, facetsSchema),
  /** Faces the local analysis found in a shot, per sampled frame (boxes as fractions of the picture), for the viewer. */
  'search.faces': method(
    z.object({ shotId: z.number().int().positive() }).strict(),
    z.object({
      frames: z.array(z.object({ timeS: z.number(), faces: z.array(z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number(), score: z.number() })) })),
    }),
  ),
  /**
   * A clip's tags along its length for the viewer's overlay: indexed segments with the service's
   * and local tags resolved, and shots not sent to the service with their local tags.
   */
  'search.clipTags': method(
    z.object({ clipId: z.number().int().positive() }).strict(),
    z.object({
      spans: z.array(z.object({ segmentId: z.number().int().nullable(), shotId: z.number().int(), startS: z.number(), endS: z.number(), tags: z.array(segmentTagSchema) })),
    }),
  ),
  'search.status': method(voidSchema, searchStatusSchema),
  /** Queries whose embedding is cached (they run offline), most recent first. */
  'search.history': method(z.object({ limit: z.number().int().min(1).max(200).default(20) }).strict(), z.object({ queries: z.array(cachedQuerySchema) })),
} as const satisfies Record<string, MethodDef>;

export const searchEvents = {
  /** Index state or service reachability changed. */
  'search.status': searchStatusSchema,
} as const satisfies Record<string, z.ZodType>;
