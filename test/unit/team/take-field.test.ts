import { describe, expect, it } from 'vitest';
import { takeField, type Held, type Stamp } from '../../../src-main/core/util/take-field';

/**
 * The one rule every field a seat edits over a server's version goes by (a mark's field, a person's
 * name and hidden flag, a clip's presence in a collection): held field + the server's version -> held
 * field (stamps are the server's, team migrations 0014 and 0016; a pending field is a local edit over its stamp).
 */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const at = (t: number, by = A): Stamp => ({ at: t, by });
const field = <T>(value: T, t: number, by = A, pending = false): Held<T> => ({ value, stamp: at(t, by), pending });

describe('the team\'s rule on a seat: one field', () => {
  it('a field not held is taken as the server has it', () => {
    expect(takeField(null, { value: 'x', stamp: at(10) })).toEqual({ field: field('x', 10), lost: false });
  });

  it('no local edit: a newer server version replaces, an older one (a crossed read) does not', () => {
    expect(takeField(field('a', 10), { value: 'b', stamp: at(20, B) })).toEqual({ field: field('b', 20, B), lost: false });
    expect(takeField(field('b', 20, B), { value: 'a', stamp: at(10) })).toEqual({ field: field('b', 20, B), lost: false });
  });

  it('a pending edit over the version the server still holds stays (it will be sent)', () => {
    const mine = field('mine', 10, A, true);
    expect(takeField(mine, { value: 'a', stamp: at(10) })).toEqual({ field: mine, lost: false });
  });

  it('a push answered with the very version the edit was made over, holding the edit\'s value: nothing is left pending', () => {
    expect(takeField(field('a', 10, A, true), { value: 'a', stamp: at(10) }, { value: 'a' })).toEqual({ field: field('a', 10), lost: false });
  });

  it('a pending edit over an older version than the server now holds gives way, and says it lost', () => {
    expect(takeField(field('mine', 10, A, true), { value: 'theirs', stamp: at(20, B) })).toEqual({ field: field('theirs', 20, B), lost: true });
  });

  it('the server took the pending edit (or holds the same value): taken with its stamp, nothing lost', () => {
    expect(takeField(field('mine', 10, A, true), { value: 'mine', stamp: at(20, A) })).toEqual({ field: field('mine', 20, A), lost: false });
  });

  it('edited again while the push was in flight: the sent value landed, so the newer edit stays pending over the new stamp', () => {
    const again = field('second', 10, A, true);
    expect(takeField(again, { value: 'first', stamp: at(20, A) }, { value: 'first' })).toEqual({ field: field('second', 20, A, true), lost: false });
    // and when the sent value did not land, the edit lost
    expect(takeField(again, { value: 'theirs', stamp: at(20, B) }, { value: 'first' })).toEqual({ field: field('theirs', 20, B), lost: true });
  });
});
