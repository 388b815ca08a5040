import { describe, expect, it } from 'vitest';
import { clipPeople, peopleInPart } from '../../../src-main/core/export/export-people';
import type { PersonPresence, PersonSpan } from '../../../src-main/core/people/person-presence';

/** A presence that answers one clip's spans as given (the store's own reads: person-spans.test.ts). */
function presenceOf(spans: Array<Omit<PersonSpan, 'personId' | 'clipId' | 'shotId' | 'shotStartS'> & { name: string }>): PersonPresence {
  return {
    personByName: () => null,
    spansOf: () => [],
    namedSpansInClip: () => spans.map((s, i) => ({ ...s, personId: s.name.length, clipId: 1, shotId: i + 1, shotStartS: s.startS })),
  };
}
const RATE = { num: 25, den: 1 };

describe("an export's people", () => {
  it("keeps a clip's decoded frames at its own rate; a person seen up to a cut and on after it is one stretch, another name is not merged", () => {
    const presence = presenceOf([
      { name: 'Maria', inFrame: 10, outFrame: 100, startS: 0.4, endS: 4 },
      { name: 'Tom', inFrame: 90, outFrame: 100, startS: 3.6, endS: 4 },
      { name: 'Maria', inFrame: 100, outFrame: 120, startS: 4, endS: 4.8 },
      { name: 'Maria', inFrame: 130, outFrame: 140, startS: 5.2, endS: 5.6 },
    ]);
    expect(clipPeople(presence, 1, RATE, false)).toEqual([
      { name: 'Maria', inFrame: 10, outFrame: 120 },
      { name: 'Tom', inFrame: 90, outFrame: 100 },
      { name: 'Maria', inFrame: 130, outFrame: 140 },
    ]);
  });

  it('places a conformed (variable-rate) clip\'s spans by their times on its rate\'s grid, as its shots', () => {
    // Decoded frames of a VFR file are not the conformed grid's: 1.0 s..2.0 s is frames 25..50 at 25.
    const presence = presenceOf([{ name: 'Maria', inFrame: 30, outFrame: 45, startS: 1, endS: 2 }]);
    expect(clipPeople(presence, 1, RATE, true)).toEqual([{ name: 'Maria', inFrame: 25, outFrame: 50 }]);
  });

  it('puts a person on a part only where a span overlaps it, cut to its In and Out (touching is not overlapping)', () => {
    const people = [
      { name: 'Maria', inFrame: 10, outFrame: 50 },
      { name: 'Tom', inFrame: 50, outFrame: 60 },
      { name: 'Ana', inFrame: 80, outFrame: 90 },
    ];
    expect(peopleInPart(people, 40, 80)).toEqual([
      { name: 'Maria', inFrame: 40, outFrame: 50 },
      { name: 'Tom', inFrame: 50, outFrame: 60 },
    ]);
    expect(peopleInPart(people, 60, 80)).toEqual([]);
  });
});
