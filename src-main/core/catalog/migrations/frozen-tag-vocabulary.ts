/**
 * The tag vocabulary as migrations 0014 and 0015 read it, frozen (tags/tag-vocabulary.ts at
 * c732043, whose synonyms, fillers, stems and snake case did not change up to 0015): a migration
 * must do tomorrow what it did when it shipped, so it reads this copy, never the live vocabulary,
 * which may learn new spellings (a change of what a stored value means then comes with a migration
 * of its own). Only what mapping a stored value onto an id needs: no labels, no query phrasing.
 */
export type FrozenTagField = 'shotSize' | 'cameraMovement' | 'shootingAngle';

/** id -> spellings after compaction (lower case, no separators, filler words dropped). */
const SYNONYMS: Readonly<Record<FrozenTagField, Readonly<Record<string, readonly string[]>>>> = {
  shotSize: {
    extreme_close_up: ['ecu', 'xcu', 'ecs', 'bcu', 'extremecloseup', 'extremeclose', 'bigcloseup', 'verycloseup', 'vcu', 'detail'],
    close_up: ['cu', 'cs', 'closeup', 'close', 'tightcloseup'],
    medium_close_up: ['mcu', 'mcs', 'mediumcloseup', 'mediumclose', 'midcloseup', 'chest'],
    medium: ['ms', 'medium', 'mid', 'midrange', 'waist', 'mediumrange'],
    medium_wide: ['mws', 'mls', 'mediumwide', 'mediumlong', 'mediumfull', 'cowboy', 'american', 'knee', 'threequarter'],
    wide: ['ws', 'ls', 'fs', 'wide', 'long', 'full', 'fullbody'],
    extreme_wide: ['ews', 'els', 'xws', 'xls', 'vws', 'extremewide', 'extremelong', 'verywide', 'verylong', 'establishing'],
  },
  cameraMovement: {
    static: ['static', 'locked', 'lockedoff', 'lockeddown', 'fixed', 'still', 'tripod', 'no', 'none', 'stationary'],
    pan_left: ['panleft', 'leftpan', 'panl'],
    pan_right: ['panright', 'rightpan', 'panr'],
    pan: ['pan', 'whippan', 'swishpan'],
    tilt_up: ['tiltup', 'uptilt'],
    tilt_down: ['tiltdown', 'downtilt'],
    tilt: ['tilt'],
    zoom_in: ['zoomin'],
    zoom_out: ['zoomout'],
    zoom: ['zoom', 'crashzoom'],
    dolly_in: ['dollyin', 'pushin', 'push', 'trackin', 'dollyforward'],
    dolly_out: ['dollyout', 'pullout', 'pullback', 'pull', 'trackout', 'dollyback'],
    tracking: ['tracking', 'track', 'dolly', 'truck', 'truckleft', 'truckright', 'follow', 'steadicam', 'gimbal', 'travelling', 'traveling'],
    crane: ['crane', 'jib', 'boom', 'pedestal', 'craneup', 'cranedown', 'boomup', 'boomdown'],
    arc: ['arc', 'orbit', 'circling'],
    handheld: ['handheld', 'hh', 'shaky'],
    aerial: ['aerial', 'drone', 'helicopter'],
    moving: ['moving', 'motion', 'movingcamera', 'dynamic'],
  },
  shootingAngle: {
    eye_level: ['eyelevel', 'eye', 'neutral', 'straight', 'straighton', 'level', 'el'],
    high_angle: ['high', 'highangle', 'ha', 'lookingdown'],
    low_angle: ['low', 'lowangle', 'la', 'wormseye', 'worms', 'lookingup'],
    overhead: ['overhead', 'birdseye', 'birds', 'topdown', 'top', 'godseye'],
    dutch: ['dutch', 'dutchtilt', 'canted', 'oblique', 'tilted', 'slanted'],
  },
};

const FILLER: Readonly<Record<FrozenTagField, ReadonlySet<string>>> = {
  shotSize: new Set(['shot', 'shots', 'size', 'framing', 'frame', 'type']),
  cameraMovement: new Set(['shot', 'shots', 'camera', 'cam', 'movement', 'move', 'the', 'to', 'a']),
  shootingAngle: new Set(['shot', 'shots', 'angle', 'angled', 'camera', 'view', 'level']),
};

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

/** Compact spelling -> id, per field (an id's own compact form names it too). */
const INDEX: Readonly<Record<FrozenTagField, ReadonlyMap<string, string>>> = {
  shotSize: indexOf('shotSize'),
  cameraMovement: indexOf('cameraMovement'),
  shootingAngle: indexOf('shootingAngle'),
};

function indexOf(field: FrozenTagField): Map<string, string> {
  const m = new Map<string, string>();
  for (const [id, spellings] of Object.entries(SYNONYMS[field])) for (const s of [id.replace(/_/g, ''), ...spellings]) m.set(s, id);
  return m;
}

function compact(field: FrozenTagField, raw: string): string {
  const words = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return words
    .map((w) => (field === 'cameraMovement' ? (STEMS[w] ?? w) : w))
    .filter((w) => !FILLER[field].has(w))
    .join('');
}

function snake(v: string): string {
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

/** The id a stored value meant then: the vocabulary's, or the value's own snake case ('' for an empty one). */
export function frozenCanonicalTag(field: FrozenTagField, raw: string): string {
  const key = compact(field, raw);
  return (key === '' ? undefined : INDEX[field].get(key)) ?? snake(raw);
}
