import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';
import { vocabularyTable } from '../../helpers/catalog/vocabulary-table';
import { canonicalTag, PEOPLE_VOCABULARY, tagLabel, TAG_VOCABULARY } from '../../../src-main/core/tags/tag-vocabulary';

/** Spellings of each taxonomy, as their papers, datasets and tools write them. */
const SHOT_SIZES: Record<string, string[]> = {
  // industry abbreviations and long forms; MovieShots (ECS/CS/MS/FS/LS); CineScale (ECU..ELS);
  // CinemaNet's framing classes; Final Cut Pro's analysis keywords.
  extreme_close_up: ['ECU', 'XCU', 'ECS', 'BCU', 'Extreme Close-Up', 'extreme close up', 'Extreme Closeup Shot', 'extreme_close_up'],
  close_up: ['CU', 'CS', 'Close-Up', 'close up', 'closeup', 'Close Up Shot', 'CLOSE-UP SHOT', 'close_up'],
  medium_close_up: ['MCU', 'Medium Close-Up', 'medium close up shot', 'medium_close_up'],
  medium: ['MS', 'Medium', 'medium shot', 'Medium Shot', 'mid shot', 'Mid-Shot'],
  medium_wide: ['MLS', 'MWS', 'Medium Long Shot', 'medium wide shot', 'cowboy shot', 'American shot'],
  wide: ['WS', 'LS', 'FS', 'Wide', 'wide shot', 'Wide Shot', 'Long Shot', 'full shot', 'long'],
  extreme_wide: ['EWS', 'ELS', 'XWS', 'Extreme Wide Shot', 'extreme long shot', 'extreme long', 'Extreme-Wide'],
};
const MOVEMENTS: Record<string, string[]> = {
  static: ['static', 'Static', 'Static Shot', 'locked off', 'Locked-Off', 'fixed', 'tripod', 'no movement'],
  handheld: ['handheld', 'hand-held', 'Hand Held', 'Handheld Camera', 'HH'],
  tracking: ['tracking', 'Tracking Shot', 'track', 'dolly', 'Dolly Shot', 'truck left', 'steadicam', 'following'],
  pan_left: ['pan left', 'Pan Left', 'pan-left', 'panning left', 'pan to the left', 'left pan'],
  pan_right: ['pan right', 'Panning Right'],
  pan: ['pan', 'Pan', 'whip pan', 'panning'],
  tilt_up: ['tilt up', 'Tilt-Up', 'tilting up'],
  tilt_down: ['tilt down'],
  zoom_in: ['zoom in', 'Zoom-In', 'zooming in'],
  zoom_out: ['zoom out', 'Zoom Out'],
  dolly_in: ['dolly in', 'push in', 'Push', 'Push-In'],
  dolly_out: ['dolly out', 'pull back', 'Pull', 'pull out'],
  aerial: ['aerial', 'Aerial Shot', 'drone', 'Drone shot'],
  crane: ['crane', 'Jib', 'boom up', 'Crane Shot'],
  moving: ['moving', 'Motion', 'camera motion'],
};
const ANGLES: Record<string, string[]> = {
  eye_level: ['eye level', 'Eye-Level', 'Eye Level Shot', 'eye_level', 'neutral'],
  high_angle: ['high angle', 'High', 'High-Angle Shot', 'high_angle'],
  low_angle: ['low angle', 'Low', 'Low-Angle Shot', "worm's-eye view", 'low_angle'],
  overhead: ['overhead', "Bird's-eye", "bird's eye view", 'top-down', 'Overhead Shot'],
  dutch: ['dutch', 'Dutch Angle', 'Dutch Tilt', 'canted', 'oblique angle'],
};

describe('tag vocabulary', () => {
  it.each(Object.entries(SHOT_SIZES))('shot size %s', (id, spellings) => {
    for (const s of spellings) expect([s, canonicalTag('shotSize', s)]).toEqual([s, id]);
  });
  it.each(Object.entries(MOVEMENTS))('camera movement %s', (id, spellings) => {
    for (const s of spellings) expect([s, canonicalTag('cameraMovement', s)]).toEqual([s, id]);
  });
  it.each(Object.entries(ANGLES))('shooting angle %s', (id, spellings) => {
    for (const s of spellings) expect([s, canonicalTag('shootingAngle', s)]).toEqual([s, id]);
  });

  it('keeps values outside the vocabulary, in snake case, never empty', () => {
    expect(canonicalTag('shotSize', 'Over-the-shoulder')).toBe('over_the_shoulder');
    expect(canonicalTag('shotSize', 'Insert')).toBe('insert');
    expect(canonicalTag('shotSize', 'no person')).toBe('no_person');
    expect(canonicalTag('shootingAngle', 'Shoulder Level')).toBe('shoulder_level');
    expect(canonicalTag('cameraMovement', 'Rack focus')).toBe('rack_focus');
    // A value that is only the field's own name is not a value: kept as written.
    expect(canonicalTag('shootingAngle', 'Angle')).toBe('angle');
    expect(canonicalTag('shotSize', '   ')).toBe('');
  });

  it('does not read one field with another field\'s words', () => {
    // "tilted" is a dutch angle, not a tilt; "LS" is a long shot, not a movement.
    expect(canonicalTag('shootingAngle', 'tilted')).toBe('dutch');
    expect(canonicalTag('cameraMovement', 'LS')).toBe('ls');
  });

  it('labels ids for chips, and every id is its own fixed point', () => {
    expect(tagLabel('shotSize', 'close_up')).toBe('Close-up');
    expect(tagLabel('shootingAngle', 'over_the_shoulder')).toBe('Over the shoulder');
    for (const [field, entries] of Object.entries(TAG_VOCABULARY) as [keyof typeof TAG_VOCABULARY, (typeof TAG_VOCABULARY)['shotSize']][]) {
      for (const e of entries) {
        expect(canonicalTag(field, e.id)).toBe(e.id);
        expect(canonicalTag(field, e.label)).toBe(e.id);
      }
    }
  });

  it('query uses name spellings of their own entry; query-only phrasings are new spellings that stored tags never read', () => {
    const spellings = new Map<string, string>();
    for (const [field, entries] of Object.entries(TAG_VOCABULARY) as [keyof typeof TAG_VOCABULARY, (typeof TAG_VOCABULARY)['shotSize']][]) {
      for (const e of entries) for (const s of e.synonyms) spellings.set(`${field}:${s}`, e.id);
    }
    for (const [field, entries] of Object.entries(TAG_VOCABULARY) as [keyof typeof TAG_VOCABULARY, (typeof TAG_VOCABULARY)['shotSize']][]) {
      for (const e of entries) {
        const own = new Set([...e.synonyms, ...(e.queryPhrases ?? [])]);
        for (const s of Object.keys(e.queryUse ?? {})) expect([e.id, s, own.has(s)]).toEqual([e.id, s, true]);
        for (const q of e.queryPhrases ?? []) {
          expect([q, spellings.get(`${field}:${q}`)]).toEqual([q, undefined]);
          // A stored "Macro" stays what it was: adding a query phrasing needs no migration.
          expect(canonicalTag(field, q)).toBe(q);
        }
      }
    }
    for (const [v, e] of Object.entries(PEOPLE_VOCABULARY)) for (const s of Object.keys(e.queryUse ?? {})) expect([v, s, e.synonyms.includes(s)]).toEqual([v, s, true]);
  });

  it('the README table is the declared vocabulary', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const block = /<!-- tag-vocabulary:begin -->\n([\s\S]*?)\n<!-- tag-vocabulary:end -->/.exec(readme);
    expect(block?.[1]).toBe(vocabularyTable());
  });
});
