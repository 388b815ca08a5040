import type { TeamVideoState } from '../../../src-shared/contract/collections';
import { compareStamps, type Stamp } from '../marks/marks-merge';

/**
 * The rule of a clip's membership in one of the service's collections, shared by the seats of a team
 * (docs/notes-team-library.md), as pure functions: state + incoming version -> state, the same on the
 * server (team-collection-store.ts) and on each seat (team/syncs/collections-sync.ts), so the
 * order versions arrive in does not matter.
 * - Membership is the rule of a keyword: the latest add and the latest removal are kept, by (time,
 *   seat); the clip is in the collection while its add is the later.
 * - The video: the first video id the team hears of is the team's; a seat that uploaded another one
 *   (two seats offline) keeps its own, the team keeps the first. Its state only moves forward
 *   (uploaded < processing < processed or failed), except that a video the service failed is replaced
 *   by a new upload of it.
 */

/** What a seat knows of one member and sends: its add, its removal, and the video it has, if any. */
export interface MemberVersion {
  added: Stamp;
  removed: Stamp | null;
  video: { id: string; state: TeamVideoState; by: string } | null;
}

/** A member as the team names it: a team clip (not a catalog's clip id) in a collection of a region. */
export interface TeamMemberKey {
  collectionId: string;
  region: string;
  teamClipId: number;
}

/** A member and this seat's version of it, as the outbox sends it (collection-outbox-store.ts) and the server keeps it. */
export interface TeamMember extends TeamMemberKey {
  version: MemberVersion;
}

const RANK: Record<TeamVideoState, number> = { uploaded: 1, processing: 2, processed: 3, failed: 3 };

function latest(held: Stamp | null, incoming: Stamp | null): Stamp | null {
  if (!held) return incoming;
  if (!incoming) return held;
  return compareStamps(incoming, held) > 0 ? incoming : held;
}

export function memberPresent(m: Pick<MemberVersion, 'added' | 'removed'>): boolean {
  return m.removed === null || compareStamps(m.added, m.removed) > 0;
}

/** The video after another seat's version of it arrives. */
export function mergeVideo(held: MemberVersion['video'], incoming: MemberVersion['video']): MemberVersion['video'] {
  if (!incoming) return held;
  if (!held) return incoming;
  if (incoming.id === held.id) return RANK[incoming.state] > RANK[held.state] ? { ...held, state: incoming.state } : held;
  // Another video of the same clip: it replaces one the service failed (a retry), never a good one.
  return held.state === 'failed' && incoming.state !== 'failed' ? incoming : held;
}

export function mergeMember(state: MemberVersion | null, incoming: MemberVersion): MemberVersion {
  if (!state) return incoming;
  return {
    added: compareStamps(incoming.added, state.added) > 0 ? incoming.added : state.added,
    removed: latest(state.removed, incoming.removed),
    video: mergeVideo(state.video, incoming.video),
  };
}

export function sameMember(a: MemberVersion, b: MemberVersion): boolean {
  const same = (x: Stamp | null, y: Stamp | null) => (x === null || y === null ? x === y : compareStamps(x, y) === 0);
  const v = a.video === null || b.video === null ? a.video === b.video : a.video.id === b.video.id && a.video.state === b.video.state && a.video.by === b.video.by;
  return same(a.added, b.added) && same(a.removed, b.removed) && v;
}
