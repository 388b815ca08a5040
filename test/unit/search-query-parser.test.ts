import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src-main/core/search/query-parser';

type Row = [query: string, text: string, include: Record<string, string[]>, exclude?: Record<string, string[]>];

/** Phrasings an editor types, and what each must become: the words for encode_text, and the filters. */
const ROWS: Row[] = [
  ['close-up', '', { shotSize: ['close_up'] }],
  ['Close-Up', '', { shotSize: ['close_up'] }],
  ['closeup of a face', 'of a face', { shotSize: ['close_up'] }],
  ['close up, handheld', '', { shotSize: ['close_up'], cameraMovement: ['handheld'] }],
  ['red car close-up', 'red car', { shotSize: ['close_up'] }],
  ['CU of hands', 'of hands', { shotSize: ['close_up'] }],
  ['cu of hands', 'cu of hands', {}],
  ['ECU eyes', 'eyes', { shotSize: ['extreme_close_up'] }],
  ['extreme close-up of an eye', 'of an eye', { shotSize: ['extreme_close_up'] }],
  ['MCU interview', 'interview', { shotSize: ['medium_close_up'] }],
  ['medium close-up interview', 'interview', { shotSize: ['medium_close_up'] }],
  ['medium shot of a chef', 'of a chef', { shotSize: ['medium'] }],
  ['MS kitchen', 'kitchen', { shotSize: ['medium'] }],
  ['wide shot city at night', 'city at night', { shotSize: ['wide'] }],
  ['WS beach', 'beach', { shotSize: ['wide'] }],
  ['long shot desert', 'desert', { shotSize: ['wide'] }],
  ['EWS mountains', 'mountains', { shotSize: ['extreme_wide'] }],
  ['extreme wide shot of mountains', 'of mountains', { shotSize: ['extreme_wide'] }],
  ['establishing shot harbour', 'harbour', { shotSize: ['extreme_wide'] }],
  ['cowboy shot', '', { shotSize: ['medium_wide'] }],
  ['static', '', { cameraMovement: ['static'] }],
  ['locked-off shot of a street', 'of a street', { cameraMovement: ['static'] }],
  ['pan left across the skyline', 'across the skyline', { cameraMovement: ['pan_left'] }],
  ['panning right', '', { cameraMovement: ['pan_right'] }],
  ['Pan Right over fields', 'over fields', { cameraMovement: ['pan_right'] }],
  ['whip pan', '', { cameraMovement: ['pan'] }],
  ['frying pan on a stove', 'frying pan on a stove', {}],
  ['tilt up to the sky', 'to the sky', { cameraMovement: ['tilt_up'] }],
  ['tilt down', '', { cameraMovement: ['tilt_down'] }],
  ['zoom in on a face', 'on a face', { cameraMovement: ['zoom_in'] }],
  ['zoom out', '', { cameraMovement: ['zoom_out'] }],
  ['slow zoom', 'slow', { cameraMovement: ['zoom'] }],
  ['dolly in', '', { cameraMovement: ['dolly_in'] }],
  ['push in on the actor', 'on the actor', { cameraMovement: ['dolly_in'] }],
  ['pull back from the house', 'from the house', { cameraMovement: ['dolly_out'] }],
  ['tracking shot of a runner', 'of a runner', { cameraMovement: ['tracking'] }],
  ['dolly shot corridor', 'corridor', { cameraMovement: ['tracking'] }],
  ['steadicam', '', { cameraMovement: ['tracking'] }],
  ['handheld', '', { cameraMovement: ['handheld'] }],
  ['Hand-held street market', 'street market', { cameraMovement: ['handheld'] }],
  ['shaky cam chase', 'chase', { cameraMovement: ['handheld'] }],
  ['aerial view of a forest', 'of a forest', { cameraMovement: ['aerial'] }],
  ['drone shot coastline', 'coastline', { cameraMovement: ['aerial'] }],
  ['a drone flying indoors', 'a drone flying indoors', {}],
  ['crane shot', '', { cameraMovement: ['crane'] }],
  ['a crane lifting steel', 'a crane lifting steel', {}],
  ['eye level', '', { shootingAngle: ['eye_level'] }],
  ['eye-level portrait', 'portrait', { shootingAngle: ['eye_level'] }],
  ['high angle crowd', '', { shootingAngle: ['high_angle'], people: ['group'] }],
  ['low angle hero shot', 'hero', { shootingAngle: ['low_angle'] }],
  ['low-angle', '', { shootingAngle: ['low_angle'] }],
  ["bird's eye view of a square", 'of a square', { shootingAngle: ['overhead'] }],
  ['top-down table', 'table', { shootingAngle: ['overhead'] }],
  ['overhead shot', '', { shootingAngle: ['overhead'] }],
  ['dutch angle', '', { shootingAngle: ['dutch'] }],
  ['Dutch people dancing', 'Dutch people dancing', {}],
  ['one person walking', 'walking', { people: ['one_person'] }],
  ['two people talking', 'talking', { people: ['two_people'] }],
  ['group of people', '', { people: ['group'] }],
  ['crowd at a concert', 'at a concert', { people: ['group'] }],
  ['no people', '', { people: ['no_people'] }],
  ['empty street, nobody', 'empty street', { people: ['no_people'] }],
  ['not handheld', '', {}, { cameraMovement: ['handheld'] }],
  ['sunset -handheld', 'sunset', {}, { cameraMovement: ['handheld'] }],
  ['no handheld', '', {}, { cameraMovement: ['handheld'] }],
  ['wide, not static', '', { shotSize: ['wide'] }, { cameraMovement: ['static'] }],
  ['close-up without handheld', '', { shotSize: ['close_up'] }, { cameraMovement: ['handheld'] }],
  ['-close-up beach', 'beach', {}, { shotSize: ['close_up'] }],
  ['red car', 'red car', {}],
  ['xyzzy', 'xyzzy', {}],
  ['CLOSE-UP HANDHELD', '', { shotSize: ['close_up'], cameraMovement: ['handheld'] }],
  ['close-up close up CU', '', { shotSize: ['close_up'] }],
  ['wide or medium', '', { shotSize: ['wide', 'medium'] }],
];

describe('query parser', () => {
  it('has at least 60 phrasings', () => expect(ROWS.length).toBeGreaterThanOrEqual(60));

  it.each(ROWS)('%s', (query, text, include, exclude = {}) => {
    const p = parseQuery(query);
    expect(p.text).toBe(text);
    expect(p.include).toEqual(include);
    expect(p.exclude).toEqual(exclude);
    // One chip per phrase taken; together they name exactly the filters.
    const named = (negated: boolean) => [...new Set(p.chips.filter((c) => c.negated === negated).map((c) => `${c.field}:${c.value}`))].sort();
    const expected = (sel: Record<string, string[]>) => Object.entries(sel).flatMap(([f, vs]) => vs.map((v) => `${f}:${v}`)).sort();
    expect(named(false)).toEqual(expected(include));
    expect(named(true)).toEqual(expected(exclude));
  });

  it('gives chips with labels and the phrase as typed, negations marked', () => {
    const p = parseQuery('Hand-held close up, not low-angle');
    expect(p.chips).toEqual([
      { field: 'cameraMovement', value: 'handheld', label: 'Handheld', negated: false, phrase: 'Hand-held' },
      { field: 'shotSize', value: 'close_up', label: 'Close-up', negated: false, phrase: 'close up,' },
      { field: 'shootingAngle', value: 'low_angle', label: 'Low angle', negated: true, phrase: 'not low-angle' },
    ]);
  });
});
