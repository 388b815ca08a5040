import { describe, expect, it } from 'vitest';
import { VIDEO_STATES } from '../../src-shared/contract/collections';
import { memberPresent, mergeMember, mergeVideo, sameMember, type MemberVersion } from '../../src-main/core/collections/collection-member-merge';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const at = (t: number, by = A) => ({ at: t, by });

describe('a clip in a collection, as the seats of a team merge it', () => {
  it('is in the collection while its latest add is later than its latest removal', () => {
    const added: MemberVersion = { added: at(10), removed: null, video: null };
    const removed = mergeMember(added, { added: at(10), removed: at(20, B), video: null });
    expect(memberPresent(added)).toBe(true);
    expect(memberPresent(removed)).toBe(false);
    // an add made before the removal, arriving after it, does not bring it back
    expect(memberPresent(mergeMember(removed, { added: at(15, B), removed: null, video: null }))).toBe(false);
    // an add made after it does
    expect(memberPresent(mergeMember(removed, { added: at(25, B), removed: null, video: null }))).toBe(true);
    // the same millisecond: the seat id orders them
    expect(memberPresent(mergeMember(removed, { added: at(20, A), removed: null, video: null }))).toBe(false);
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

  it('gives one state whatever order the versions arrive in, and a version seen twice changes nothing', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const seats = [A, B];
    const version = (): MemberVersion => ({
      added: at(rand(6), seats[rand(2)]),
      removed: rand(2) ? at(rand(6), seats[rand(2)]) : null,
      video: rand(3) ? { id: `v${rand(2)}`, state: VIDEO_STATES[rand(VIDEO_STATES.length)]!, by: seats[rand(2)]! } : null,
    });
    for (let round = 0; round < 500; round++) {
      const vs = Array.from({ length: 2 + rand(3) }, version);
      const forward = vs.reduce<MemberVersion | null>((s, v) => mergeMember(s, v), null)!;
      const backward = [...vs].reverse().reduce<MemberVersion | null>((s, v) => mergeMember(s, v), null)!;
      // the video's rule is first-heard-wins between two good videos, so order shows only in which good id is kept
      expect(memberPresent(forward)).toBe(memberPresent(backward));
      expect(forward.added).toEqual(backward.added);
      expect(forward.removed).toEqual(backward.removed);
      for (const v of vs) expect(sameMember(mergeMember(forward, v), forward)).toBe(true);
    }
  });
});
