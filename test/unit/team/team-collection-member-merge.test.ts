import { describe, expect, it } from 'vitest';
import { memberPresent, mergeVideo, presenceField, presenceToSend, takePresence, type MemberVersion } from '../../../src-main/core/collections/collection-member-merge';
import type { Held } from '../../../src-main/core/util/take-field';

/**
 * A clip's membership in a collection on a seat: the presence is one field by the team's rule (server
 * stamps, team migration 0016; the rule itself: take-field.test.ts); the video its own rule.
 */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const at = (t: number, by = A) => ({ at: t, by });
const held = (value: boolean, t: number, by = A, pending = false): Held<boolean> => ({ value, stamp: at(t, by), pending });

describe('a clip in a collection, as the seats of a team merge it', () => {
  it('is in the collection while its latest add is later than its latest removal, stamped by the later', () => {
    const added: MemberVersion = { added: at(10), removed: null, video: null };
    const removed: MemberVersion = { added: at(10), removed: at(20, B), video: null };
    expect([memberPresent(added), memberPresent(removed), memberPresent({ added: at(30), removed: at(20, B) })]).toEqual([true, false, true]);
    expect(presenceField(added)).toEqual({ value: true, stamp: at(10) });
    expect(presenceField(removed)).toEqual({ value: false, stamp: at(20, B) });
  });

  it('a removal made offline over the version held lands; one made over an older version gives way to the newer add, and says it lost', () => {
    // B removed it over the add it saw (10): the server took it at 20, and the answer leaves nothing pending
    const mine = held(false, 10, A, true);
    expect(takePresence(mine, { added: at(10), removed: at(20, B), video: null }, { added: at(10, B), removed: at(10, B), video: null })).toEqual({ field: held(false, 20, B), lost: false });
    // the version it was made over, from the feed: the removal waits to be sent
    expect(takePresence(mine, { added: at(10), removed: null, video: null })).toEqual({ field: mine, lost: false });
    // someone added it again at 30 (after a removal at 25) while this removal was made over 10: the server's presence stands
    expect(takePresence(mine, { added: at(30, B), removed: at(25, B), video: null })).toEqual({ field: held(true, 30, B), lost: true });
    // an older version (a read that crossed a newer one) changes nothing
    expect(takePresence(held(true, 30, B), { added: at(10), removed: null, video: null })).toEqual({ field: held(true, 30, B), lost: false });
  });

  it('a seat sends its base as the add, and a removal when it holds the clip out (its own seat while the change is pending)', () => {
    expect(presenceToSend(held(true, 30, B), A)).toEqual({ added: at(30, B), removed: null });
    expect(presenceToSend(held(false, 30, B, true), A)).toEqual({ added: at(30, A), removed: at(30, A) });
    expect(presenceToSend(held(true, 0, A, true), A)).toEqual({ added: at(0, A), removed: null });
  });

  it('keeps the first video the team heard of; its state only moves forward; a failed one is replaced by a new upload', () => {
    const v1 = { id: 'v1', state: 'uploaded' as const, by: A };
    expect(mergeVideo(null, v1)).toEqual(v1);
    expect(mergeVideo(v1, { id: 'v2', state: 'processed', by: B })).toEqual(v1);
    expect(mergeVideo(v1, { id: 'v1', state: 'processed', by: B })).toEqual({ ...v1, state: 'processed' });
    expect(mergeVideo({ ...v1, state: 'processed' }, { id: 'v1', state: 'processing', by: B })).toEqual({ ...v1, state: 'processed' });
    const failed = { ...v1, state: 'failed' as const };
    expect(mergeVideo(failed, { id: 'v1', state: 'processing', by: B })).toEqual(failed);
    expect(mergeVideo(failed, { id: 'v2', state: 'uploaded', by: B })).toEqual({ id: 'v2', state: 'uploaded', by: B });
    expect(mergeVideo(failed, { id: 'v2', state: 'failed', by: B })).toEqual(failed);
    expect(mergeVideo(failed, null)).toEqual(failed);
  });
});
