import type { PEOPLE_VALUES, TagField } from '../../../src-shared/contract/search';

/**
 * The one vocabulary of the three tag fields the app filters on. Services, datasets and editing
 * tools each spell framing their own way (the spec does not show the service's): industry
 * abbreviations (CU, MCU, EWS), long forms ("Extreme Wide Shot"), dataset classes (MovieShots: ECS,
 * CS, MS, FS, LS; CineScale: ECU ... ELS; CinemaNet: "extreme long"), Final Cut's analysis keywords
 * ("Close Up Shot", "Wide Shot"), hyphenation ("hand-held"), case and spacing. Every one of them
 * maps onto one id per meaning here; a value none of them names is kept (as its spelling in lower
 * snake case), never dropped. The README's "Tag vocabulary" table is generated from this list.
 */
export interface VocabularyEntry {
  /** Stored in the catalog and used by filters: lower snake case. */
  id: string;
  /** Shown on chips and cards. */
  label: string;
  /** Spellings after `compactKey` (lower case, no separators, filler words removed). */
  synonyms: readonly string[];
  /**
   * Spellings (compact, as synonyms) that only a search query reads: phrasings an editor types that
   * no tagger emits ("from above", "macro shot"). Kept apart from `synonyms` so that adding one never
   * changes what a stored tag value means (that would need a migration re-running the canonicalisation).
   */
  queryPhrases?: readonly string[];
  /** How a search query reads the spellings above that are not camera jargon (`QueryUse`); the rest are read wherever they stand. */
  queryUse?: Readonly<Record<string, QueryUse>>;
}

/**
 * How the query parser (`search/query/`) reads a vocabulary spelling that is also an everyday word
 * or an abbreviation. A spelling not listed in an entry's `queryUse` is jargon ("closeup",
 * "steadicam", "birdseye") and is read wherever it stands.
 * - `modifier`: an adjective with an everyday sense ("wide", "medium", "static", "aerial"): a camera
 *   word unless it modifies the noun after it ("wide river", "medium rare", "static noise").
 * - `motion`: a verb of camera movement with an everyday sense ("pan", "zoom", "tilt", "pull out",
 *   "looking down"): a camera word beside a camera word ("shot", "camera"), before a direction
 *   ("pan across"), after a manner word ("slow zoom"), negated, or in a query of camera words only; a
 *   multi-word one ("pan left") wherever it stands, unless inflected after its subject ("man looking
 *   down", "man pulls out").
 * - `device`: a thing that carries a camera ("drone", "crane", "tripod"): a camera word beside
 *   "shot"/"footage"/"view"..., after "from/on/with (a)" ("from a drone"), or in a query of camera
 *   words only; otherwise the thing itself ("a drone flying indoors").
 * - `cued`: an everyday word that names a framing only beside "shot", "angle", "view", "camera"...
 *   ("close shot", "high angle", "top shot"; never "high school", "birds flying").
 * - `abbreviation`: in capitals wherever it stands (not before a Capitalised name: "MS Office"); in
 *   lower case only standing apart ("ms of a chef", "ecu", not "ms office", "typing ls").
 * - `label`: a dataset label that collides with common tokens ("LA", "HA", "HH"): in capitals and
 *   beside "shot"/"angle"/"camera" only.
 * - `negatedField`: "no"/"none", what "No movement" compacts to: read only with the field's own
 *   name ("no camera movement").
 * - `collective` (people): "group", "crowd", "couple": not as a quantity of something other than
 *   people ("a couple of cars", "group of birds").
 */
export type QueryUse = 'modifier' | 'motion' | 'device' | 'cued' | 'abbreviation' | 'label' | 'negatedField' | 'collective';

const ABBR = 'abbreviation';

export const TAG_VOCABULARY: Readonly<Record<TagField, readonly VocabularyEntry[]>> = {
  shotSize: [
    {
      id: 'extreme_close_up',
      label: 'Extreme close-up',
      synonyms: ['ecu', 'xcu', 'ecs', 'bcu', 'extremecloseup', 'extremeclose', 'bigcloseup', 'verycloseup', 'vcu', 'detail'],
      queryPhrases: ['macro'],
      queryUse: { ecu: ABBR, xcu: ABBR, ecs: ABBR, bcu: ABBR, vcu: ABBR, detail: 'cued', macro: 'cued' },
    },
    {
      id: 'close_up',
      label: 'Close-up',
      synonyms: ['cu', 'cs', 'closeup', 'close', 'tightcloseup'],
      queryPhrases: ['tight'],
      queryUse: { cu: ABBR, cs: ABBR, close: 'cued', tight: 'cued' },
    },
    {
      id: 'medium_close_up',
      label: 'Medium close-up',
      synonyms: ['mcu', 'mcs', 'mediumcloseup', 'mediumclose', 'midcloseup', 'chest'],
      queryUse: { mcu: ABBR, mcs: ABBR, chest: 'cued' },
    },
    {
      id: 'medium',
      label: 'Medium',
      synonyms: ['ms', 'medium', 'mid', 'midrange', 'waist', 'mediumrange'],
      queryUse: { ms: ABBR, medium: 'modifier', mid: 'cued', midrange: 'cued', waist: 'cued', mediumrange: 'cued' },
    },
    {
      id: 'medium_wide',
      label: 'Medium wide',
      synonyms: ['mws', 'mls', 'mediumwide', 'mediumlong', 'mediumfull', 'cowboy', 'american', 'knee', 'threequarter'],
      queryUse: { mws: ABBR, mls: ABBR, mediumwide: 'modifier', mediumlong: 'modifier', mediumfull: 'cued', cowboy: 'cued', american: 'cued', knee: 'cued', threequarter: 'cued' },
    },
    {
      id: 'wide',
      label: 'Wide',
      synonyms: ['ws', 'ls', 'fs', 'wide', 'long', 'full', 'fullbody'],
      queryPhrases: ['wideangle'],
      queryUse: { ws: ABBR, ls: ABBR, fs: ABBR, wide: 'modifier', long: 'cued', full: 'cued', fullbody: 'cued', wideangle: 'modifier' },
    },
    {
      id: 'extreme_wide',
      label: 'Extreme wide',
      synonyms: ['ews', 'els', 'xws', 'xls', 'vws', 'extremewide', 'extremelong', 'verywide', 'verylong', 'establishing'],
      queryUse: { ews: ABBR, els: ABBR, xws: ABBR, xls: ABBR, vws: ABBR, verywide: 'modifier', verylong: 'modifier' },
    },
  ],
  cameraMovement: [
    {
      id: 'static',
      label: 'Static',
      synonyms: ['static', 'locked', 'lockedoff', 'lockeddown', 'fixed', 'still', 'tripod', 'no', 'none', 'stationary'],
      queryUse: { static: 'modifier', locked: 'cued', lockedoff: 'motion', lockeddown: 'motion', fixed: 'cued', still: 'cued', tripod: 'device', no: 'negatedField', none: 'negatedField', stationary: 'cued' },
    },
    { id: 'pan_left', label: 'Pan left', synonyms: ['panleft', 'leftpan', 'panl'], queryUse: { panleft: 'motion', panl: 'label' } },
    { id: 'pan_right', label: 'Pan right', synonyms: ['panright', 'rightpan', 'panr'], queryUse: { panright: 'motion', panr: 'label' } },
    { id: 'pan', label: 'Pan', synonyms: ['pan', 'whippan', 'swishpan'], queryUse: { pan: 'motion' } },
    { id: 'tilt_up', label: 'Tilt up', synonyms: ['tiltup', 'uptilt'], queryUse: { tiltup: 'motion' } },
    { id: 'tilt_down', label: 'Tilt down', synonyms: ['tiltdown', 'downtilt'], queryUse: { tiltdown: 'motion' } },
    { id: 'tilt', label: 'Tilt', synonyms: ['tilt'], queryUse: { tilt: 'motion' } },
    { id: 'zoom_in', label: 'Zoom in', synonyms: ['zoomin'], queryUse: { zoomin: 'motion' } },
    { id: 'zoom_out', label: 'Zoom out', synonyms: ['zoomout'], queryUse: { zoomout: 'motion' } },
    { id: 'zoom', label: 'Zoom', synonyms: ['zoom', 'crashzoom'], queryUse: { zoom: 'motion' } },
    {
      id: 'dolly_in',
      label: 'Dolly in',
      synonyms: ['dollyin', 'pushin', 'push', 'trackin', 'dollyforward'],
      queryUse: { dollyin: 'motion', pushin: 'motion', push: 'motion', trackin: 'motion', dollyforward: 'motion' },
    },
    {
      id: 'dolly_out',
      label: 'Dolly out',
      synonyms: ['dollyout', 'pullout', 'pullback', 'pull', 'trackout', 'dollyback'],
      queryUse: { dollyout: 'motion', pullout: 'motion', pullback: 'motion', pull: 'motion', trackout: 'motion', dollyback: 'motion' },
    },
    {
      id: 'tracking',
      label: 'Tracking',
      synonyms: ['tracking', 'track', 'dolly', 'truck', 'truckleft', 'truckright', 'follow', 'steadicam', 'gimbal', 'travelling', 'traveling'],
      queryUse: { tracking: 'motion', track: 'motion', dolly: 'motion', truck: 'cued', truckleft: 'motion', truckright: 'motion', follow: 'motion', travelling: 'cued', traveling: 'cued' },
    },
    {
      id: 'crane',
      label: 'Crane',
      synonyms: ['crane', 'jib', 'boom', 'pedestal', 'craneup', 'cranedown', 'boomup', 'boomdown'],
      queryUse: { crane: 'device', jib: 'device', boom: 'cued', pedestal: 'cued', craneup: 'motion', cranedown: 'motion', boomup: 'motion', boomdown: 'motion' },
    },
    { id: 'arc', label: 'Arc', synonyms: ['arc', 'orbit', 'circling'], queryUse: { arc: 'motion', orbit: 'motion', circling: 'cued' } },
    { id: 'handheld', label: 'Handheld', synonyms: ['handheld', 'hh', 'shaky'], queryUse: { hh: 'label', shaky: 'modifier' } },
    { id: 'aerial', label: 'Aerial', synonyms: ['aerial', 'drone', 'helicopter'], queryUse: { aerial: 'modifier', drone: 'device', helicopter: 'device' } },
    {
      id: 'moving',
      label: 'Moving',
      synonyms: ['moving', 'motion', 'movingcamera', 'dynamic'],
      queryUse: { moving: 'cued', motion: 'cued', dynamic: 'cued' },
    },
  ],
  shootingAngle: [
    {
      id: 'eye_level',
      label: 'Eye level',
      synonyms: ['eyelevel', 'eye', 'neutral', 'straight', 'straighton', 'level', 'el'],
      queryUse: { eye: 'cued', neutral: 'cued', straight: 'cued', straighton: 'modifier', level: 'cued', el: 'label' },
    },
    {
      id: 'high_angle',
      label: 'High angle',
      synonyms: ['high', 'highangle', 'ha', 'lookingdown'],
      queryPhrases: ['fromabove'],
      queryUse: { high: 'cued', ha: 'label', lookingdown: 'motion' },
    },
    {
      id: 'low_angle',
      label: 'Low angle',
      synonyms: ['low', 'lowangle', 'la', 'wormseye', 'worms', 'lookingup'],
      queryPhrases: ['frombelow'],
      queryUse: { low: 'cued', la: 'label', worms: 'cued', lookingup: 'motion' },
    },
    {
      id: 'overhead',
      label: 'Overhead',
      synonyms: ['overhead', 'birdseye', 'birds', 'topdown', 'top', 'godseye'],
      queryUse: { overhead: 'modifier', birds: 'cued', top: 'cued' },
    },
    {
      id: 'dutch',
      label: 'Dutch',
      synonyms: ['dutch', 'dutchtilt', 'canted', 'oblique', 'tilted', 'slanted'],
      queryUse: { dutch: 'cued', oblique: 'cued', tilted: 'cued', slanted: 'cued' },
    },
  ],
};

/**
 * The people values (from the local face detection's count, `search/query/tag-resolution-store.ts`), with the
 * compact spellings a query names them by; their labels are `PEOPLE_LABELS`. Counts ("two men",
 * "3 people") and "no/without (any) people" are read by the query parser's grammar, not listed.
 */
export const PEOPLE_VOCABULARY: Readonly<Record<(typeof PEOPLE_VALUES)[number], Pick<VocabularyEntry, 'synonyms' | 'queryUse'>>> = {
  no_people: { synonyms: ['nopeople', 'nobody', 'noone', 'unpopulated'] },
  one_person: { synonyms: ['oneperson', 'singleperson', 'alone'] },
  two_people: { synonyms: ['twopeople', 'twoshot', 'couple', 'duo'], queryUse: { couple: 'collective' } },
  group: { synonyms: ['group', 'crowd', 'groupshot', 'threeshot'], queryUse: { group: 'collective', crowd: 'collective' } },
};

/** Words that name the field rather than the value ("Wide Shot", "High Angle", "Static camera"). */
const FILLER: Readonly<Record<TagField, ReadonlySet<string>>> = {
  shotSize: new Set(['shot', 'shots', 'size', 'framing', 'frame', 'type']),
  cameraMovement: new Set(['shot', 'shots', 'camera', 'cam', 'movement', 'move', 'the', 'to', 'a']),
  shootingAngle: new Set(['shot', 'shots', 'angle', 'angled', 'camera', 'view', 'level']),
};

/** Verb forms of movements: "panning left" is "pan left" (movement values only). */
const STEMS: Readonly<Record<string, string>> = {
  panning: 'pan',
  panned: 'pan',
  tilting: 'tilt',
  tilted: 'tilt',
  zooming: 'zoom',
  zoomed: 'zoom',
  dollying: 'dolly',
  trucking: 'truck',
  craning: 'crane',
  pushing: 'push',
  pulling: 'pull',
  following: 'follow',
  orbiting: 'orbit',
};

/** "Close-Up Shot" -> "closeup"; "bird's-eye view" -> "birdseye"; "panning to the left" -> "panleft". */
export function compactKey(field: TagField, raw: string): string {
  const words = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return compactWords(field, words);
}

/** `compactKey` of words already lower-cased and split (the query parser's): stemmed, fillers dropped, joined. */
export function compactWords(field: TagField, words: readonly string[]): string {
  const filler = FILLER[field];
  let out = '';
  for (const w of words) {
    const s = field === 'cameraMovement' ? (STEMS[w] ?? w) : w;
    if (!filler.has(s)) out += s;
  }
  return out;
}

const INDEX: Readonly<Record<TagField, ReadonlyMap<string, VocabularyEntry>>> = (() => {
  const out = {} as Record<TagField, Map<string, VocabularyEntry>>;
  for (const field of Object.keys(TAG_VOCABULARY) as TagField[]) {
    const m = new Map<string, VocabularyEntry>();
    for (const e of TAG_VOCABULARY[field]) {
      for (const s of [e.id.replace(/_/g, ''), ...e.synonyms]) {
        const prior = m.get(s);
        if (prior && prior !== e) throw new Error(`tag vocabulary: "${s}" names both ${prior.id} and ${e.id}`);
        m.set(s, e);
      }
    }
    out[field] = m;
  }
  return out;
})();

/** Lower snake case of any spelling: the id a value outside the vocabulary is kept under. */
export function snakeCase(v: string): string {
  return v
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s\-/]+/g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

export function vocabularyEntry(field: TagField, raw: string): VocabularyEntry | undefined {
  const key = compactKey(field, raw);
  return key === '' ? undefined : INDEX[field].get(key);
}

/** The canonical id of a value of a field: the vocabulary's, or the value's own snake case. Empty for an empty value. */
export function canonicalTag(field: TagField, raw: string): string {
  return vocabularyEntry(field, raw)?.id ?? snakeCase(raw);
}

/** The label of a canonical id: the vocabulary's, or the id with spaces. */
export function tagLabel(field: TagField, canonical: string): string {
  const e = INDEX[field].get(canonical.replace(/_/g, ''));
  if (e && e.id === canonical) return e.label;
  const words = canonical.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
