/**
 * What Apple's FCPXML 1.10 DTD requires of the elements Reelscout writes, as data a test checks a
 * file against. Written from reading the DTD (Apple's "Document Type Definition" page for FCPXML
 * 1.10, also vendored by several FCP tool repositories); the DTD itself is not copied.
 *
 * Simplifications: parameter entities are expanded by hand; groups the writer never produces
 * (filters, adjustments, anchored clips, metadata) are kept as names so their position is still
 * checked; attribute value types other than the listed enumerations are not checked here (times
 * are checked separately as frame-exact rationals).
 */
export interface ElementRule {
  /** Children in order: each group lists the names allowed at that position and how many. */
  children: { names: string[]; min: number; max: number }[];
  /** Declared #REQUIRED. */
  required: string[];
  /** Every attribute the DTD declares for the element. */
  allowed: string[];
  /** Attributes whose value is one of a list. */
  enums?: Record<string, string[]>;
  /** Declared EMPTY. */
  empty?: boolean;
}

const MANY = Number.POSITIVE_INFINITY;
const EVENT_ITEMS = ['clip', 'audition', 'mc-clip', 'ref-clip', 'sync-clip', 'asset-clip', 'collection-folder', 'keyword-collection', 'smart-collection', 'project'];
const ANCHOR_ITEMS = ['audio', 'video', 'clip', 'title', 'caption', 'mc-clip', 'ref-clip', 'sync-clip', 'asset-clip', 'audition', 'spine'];
const MARKER_ITEMS = ['marker', 'chapter-marker', 'rating', 'keyword', 'analysis-marker'];
const VIDEO_ADJUSTMENTS = [
  'object-tracker', 'adjust-crop', 'adjust-corners', 'adjust-conform', 'adjust-transform', 'adjust-blend', 'adjust-stabilization',
  'adjust-rollingShutter', 'adjust-360-transform', 'adjust-reorient', 'adjust-orientation', 'adjust-cinematic',
];
const AUDIO_ADJUSTMENTS = ['adjust-volume', 'adjust-panner'];
/** Timing, then intrinsic video and audio parameters: each optional, each in this order. */
const CLIP_PARAMS = ['conform-rate', 'timeMap', ...VIDEO_ADJUSTMENTS, ...AUDIO_ADJUSTMENTS].map((n) => ({ names: [n], min: 0, max: 1 }));
const SOURCE_ATTRS = ['lane', 'offset', 'name', 'start', 'duration', 'enabled'];

export const FCPXML_1_10: Record<string, ElementRule> = {
  // Root: optional import options, optional resources, then a library, or events, or event items.
  fcpxml: {
    children: [
      { names: ['import-options'], min: 0, max: 1 },
      { names: ['resources'], min: 0, max: 1 },
      { names: ['library', 'event', ...EVENT_ITEMS], min: 0, max: MANY },
    ],
    required: [],
    allowed: ['version'],
    enums: { version: ['1.10'] },
  },
  // Shared resources in any order.
  resources: { children: [{ names: ['asset', 'effect', 'format', 'media', 'locator'], min: 0, max: MANY }], required: [], allowed: [] },
  format: {
    children: [],
    empty: true,
    required: ['id'],
    allowed: ['id', 'name', 'frameDuration', 'fieldOrder', 'width', 'height', 'paspH', 'paspV', 'colorSpace', 'projection', 'stereoscopic'],
  },
  // At least one media representation, then optional metadata.
  asset: {
    children: [
      { names: ['media-rep'], min: 1, max: MANY },
      { names: ['metadata'], min: 0, max: 1 },
    ],
    required: ['id'],
    allowed: [
      'id', 'name', 'uid', 'start', 'duration', 'hasVideo', 'format', 'hasAudio', 'videoSources', 'audioSources', 'audioChannels', 'audioRate',
      'customLUTOverride', 'colorSpaceOverride', 'projectionOverride', 'stereoscopicOverride', 'auxVideoFlags',
    ],
  },
  'media-rep': {
    children: [{ names: ['bookmark'], min: 0, max: 1 }],
    required: ['src'],
    allowed: ['kind', 'sig', 'src', 'suggestedFilename'],
    enums: { kind: ['original-media', 'proxy-media'] },
  },
  library: { children: [{ names: ['event', 'smart-collection'], min: 0, max: MANY }], required: [], allowed: ['location', 'colorProcessing'] },
  event: { children: [{ names: EVENT_ITEMS, min: 0, max: MANY }], required: [], allowed: ['name', 'uid'] },
  // Note, timing and intrinsic parameters, anchored items, then marker items (markers, ratings and
  // keywords in any mix), audio channel sources, video filters, audio filters, metadata.
  'asset-clip': {
    children: [
      { names: ['note'], min: 0, max: 1 },
      ...CLIP_PARAMS,
      { names: ANCHOR_ITEMS, min: 0, max: MANY },
      { names: MARKER_ITEMS, min: 0, max: MANY },
      { names: ['audio-channel-source'], min: 0, max: MANY },
      { names: ['filter-video', 'filter-video-mask'], min: 0, max: MANY },
      { names: ['filter-audio'], min: 0, max: MANY },
      { names: ['metadata'], min: 0, max: 1 },
    ],
    required: ['ref'],
    allowed: ['ref', ...SOURCE_ATTRS, 'srcEnable', 'audioStart', 'audioDuration', 'format', 'tcStart', 'tcFormat', 'modDate', 'audioRole', 'videoRole'],
    enums: { tcFormat: ['DF', 'NDF'], srcEnable: ['all', 'audio', 'video'], enabled: ['0', '1'] },
  },
  // A project holds one sequence: an optional note, its spine, optional metadata.
  project: { children: [{ names: ['sequence'], min: 1, max: 1 }], required: [], allowed: ['name', 'uid', 'id', 'modDate'] },
  sequence: {
    children: [
      { names: ['note'], min: 0, max: 1 },
      { names: ['spine'], min: 1, max: 1 },
      { names: ['metadata'], min: 0, max: 1 },
    ],
    required: ['format'],
    allowed: ['format', 'duration', 'tcStart', 'tcFormat', 'audioLayout', 'audioRate', 'renderFormat', 'keywords'],
    enums: { tcFormat: ['DF', 'NDF'], audioLayout: ['mono', 'stereo', 'surround'], audioRate: ['32k', '44.1k', '48k', '88.2k', '96k', '176.4k', '192k'] },
  },
  // Story elements in timeline order.
  spine: {
    children: [{ names: ['audio', 'video', 'clip', 'title', 'caption', 'mc-clip', 'ref-clip', 'sync-clip', 'asset-clip', 'audition', 'gap', 'transition'], min: 0, max: MANY }],
    required: [],
    allowed: ['lane', 'offset', 'name', 'format'],
  },
  marker: { children: [], empty: true, required: ['start', 'value'], allowed: ['start', 'duration', 'value', 'completed', 'note'] },
  rating: { children: [], empty: true, required: ['value'], allowed: ['name', 'start', 'duration', 'value', 'note'], enums: { value: ['favorite', 'reject'] } },
  keyword: { children: [], empty: true, required: ['value'], allowed: ['start', 'duration', 'value', 'note'] },
  note: { children: [], required: [], allowed: [] },
};
