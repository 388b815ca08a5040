import type { TagField } from '../../../src-shared/contract/search';

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
}

export const TAG_VOCABULARY: Readonly<Record<TagField, readonly VocabularyEntry[]>> = {
  shotSize: [
    { id: 'extreme_close_up', label: 'Extreme close-up', synonyms: ['ecu', 'xcu', 'ecs', 'bcu', 'extremecloseup', 'extremeclose', 'bigcloseup', 'verycloseup', 'vcu', 'detail'] },
    { id: 'close_up', label: 'Close-up', synonyms: ['cu', 'cs', 'closeup', 'close', 'tightcloseup'] },
    { id: 'medium_close_up', label: 'Medium close-up', synonyms: ['mcu', 'mcs', 'mediumcloseup', 'mediumclose', 'midcloseup', 'chest'] },
    { id: 'medium', label: 'Medium', synonyms: ['ms', 'medium', 'mid', 'midrange', 'waist', 'mediumrange'] },
    { id: 'medium_wide', label: 'Medium wide', synonyms: ['mws', 'mls', 'mediumwide', 'mediumlong', 'mediumfull', 'cowboy', 'american', 'knee', 'threequarter'] },
    { id: 'wide', label: 'Wide', synonyms: ['ws', 'ls', 'fs', 'wide', 'long', 'full', 'fullbody'] },
    { id: 'extreme_wide', label: 'Extreme wide', synonyms: ['ews', 'els', 'xws', 'xls', 'vws', 'extremewide', 'extremelong', 'verywide', 'verylong', 'establishing'] },
  ],
  cameraMovement: [
    { id: 'static', label: 'Static', synonyms: ['static', 'locked', 'lockedoff', 'lockeddown', 'fixed', 'still', 'tripod', 'no', 'none', 'stationary'] },
    { id: 'pan_left', label: 'Pan left', synonyms: ['panleft', 'leftpan', 'panl'] },
    { id: 'pan_right', label: 'Pan right', synonyms: ['panright', 'rightpan', 'panr'] },
    { id: 'pan', label: 'Pan', synonyms: ['pan', 'whippan', 'swishpan'] },
    { id: 'tilt_up', label: 'Tilt up', synonyms: ['tiltup', 'uptilt'] },
    { id: 'tilt_down', label: 'Tilt down', synonyms: ['tiltdown', 'downtilt'] },
    { id: 'tilt', label: 'Tilt', synonyms: ['tilt'] },
    { id: 'zoom_in', label: 'Zoom in', synonyms: ['zoomin'] },
    { id: 'zoom_out', label: 'Zoom out', synonyms: ['zoomout'] },
    { id: 'zoom', label: 'Zoom', synonyms: ['zoom', 'crashzoom'] },
    { id: 'dolly_in', label: 'Dolly in', synonyms: ['dollyin', 'pushin', 'push', 'trackin', 'dollyforward'] },
    { id: 'dolly_out', label: 'Dolly out', synonyms: ['dollyout', 'pullout', 'pullback', 'pull', 'trackout', 'dollyback'] },
    { id: 'tracking', label: 'Tracking', synonyms: ['tracking', 'track', 'dolly', 'truck', 'truckleft', 'truckright', 'follow', 'steadicam', 'gimbal', 'travelling', 'traveling'] },
    { id: 'crane', label: 'Crane', synonyms: ['crane', 'jib', 'boom', 'pedestal', 'craneup', 'cranedown', 'boomup', 'boomdown'] },
    { id: 'arc', label: 'Arc', synonyms: ['arc', 'orbit', 'circling'] },
    { id: 'handheld', label: 'Handheld', synonyms: ['handheld', 'hh', 'shaky'] },
    { id: 'aerial', label: 'Aerial', synonyms: ['aerial', 'drone', 'helicopter'] },
    { id: 'moving', label: 'Moving', synonyms: ['moving', 'motion', 'movingcamera', 'dynamic'] },
  ],
  shootingAngle: [
    { id: 'eye_level', label: 'Eye level', synonyms: ['eyelevel', 'eye', 'neutral', 'straight', 'straighton', 'level', 'el'] },
    { id: 'high_angle', label: 'High angle', synonyms: ['high', 'highangle', 'ha', 'lookingdown'] },
    { id: 'low_angle', label: 'Low angle', synonyms: ['low', 'lowangle', 'la', 'wormseye', 'worms', 'lookingup'] },
    { id: 'overhead', label: 'Overhead', synonyms: ['overhead', 'birdseye', 'birds', 'topdown', 'top', 'godseye'] },
    { id: 'dutch', label: 'Dutch', synonyms: ['dutch', 'dutchtilt', 'canted', 'oblique', 'tilted', 'slanted'] },
  ],
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
  const filler = FILLER[field];
  const stem = (w: string) => (field === 'cameraMovement' ? (STEMS[w] ?? w) : w);
  return words
    .map(stem)
    .filter((w) => !filler.has(w))
    .join('');
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
