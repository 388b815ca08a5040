import type { EmulatorConfig } from './config';

/**
 * How the emulator spells its tag values (knob tagVocabulary). The spec does not show the values of
 * tags; real services and the datasets their models are trained on write framing in different
 * taxonomies, so the emulator can speak several. 'snake' is its own default; the others follow
 * industry abbreviations, long forms, MovieShots' classes and Final Cut's analysis keywords. They
 * are written from those taxonomies, not from the app's vocabulary (the emulator imports nothing of
 * the app).
 */
export const TAG_VOCABULARIES = ['snake', 'abbreviation', 'long', 'movieshots', 'fcp'] as const;
export type TagVocabularyStyle = (typeof TAG_VOCABULARIES)[number];

type Field = 'shotSize' | 'cameraMovement' | 'shootingAngle';

const SPELLINGS: Record<Exclude<TagVocabularyStyle, 'snake'>, Record<Field, Record<string, string>>> = {
  abbreviation: {
    shotSize: { close_up: 'CU', medium: 'MS', wide: 'WS' },
    cameraMovement: { static: 'Locked-off', moving: 'Hand-held' },
    shootingAngle: { eye_level: 'Eye-level', high_angle: 'High', low_angle: 'Low' },
  },
  long: {
    shotSize: { close_up: 'Close-Up Shot', medium: 'Medium Shot', wide: 'Wide Shot' },
    cameraMovement: { static: 'Static Shot', moving: 'Tracking Shot' },
    shootingAngle: { eye_level: 'Eye-Level Shot', high_angle: 'High-Angle Shot', low_angle: 'Low-Angle Shot' },
  },
  movieshots: {
    shotSize: { close_up: 'CS', medium: 'MS', wide: 'LS' },
    cameraMovement: { static: 'Static', moving: 'Motion' },
    shootingAngle: { eye_level: 'eye level', high_angle: 'high', low_angle: 'low' },
  },
  fcp: {
    shotSize: { close_up: 'Close Up Shot', medium: 'Medium Shot', wide: 'Wide Shot' },
    cameraMovement: { static: 'Locked Off', moving: 'Handheld' },
    shootingAngle: { eye_level: 'Eye Level', high_angle: 'High Angle', low_angle: 'Low Angle' },
  },
};

/** The spelling of an internal label in a style; 'snake' keeps the label (or the given title). */
export function spell(style: EmulatorConfig['tagVocabulary'], field: Field, label: string, title?: string): string {
  if (style === 'snake') return title ?? label;
  return SPELLINGS[style][field][label] ?? label;
}
