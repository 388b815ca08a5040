import type { TeamVideoState } from '../../../src-shared/contract/collections';
import { takeField, type Held, type Stamp, type Versioned } from '../util/take-field';

/**
 * The rule of a clip's membership in one of the service's collections, shared by the seats of a team
 * (docs/notes-team-library.md), as pure functions: held state + the server's version -> held state.
 * - Membership is one field, present or not, as a keyword: stamped by the server (team migration
 *   0016) with the later of its add and its removal; a seat's add or removal is taken over the base it
 *   was made on, by the team's one rule (util/take-field.ts).
 * - The video: the first video id the team hears of is the team's; a seat that uploaded another one
 *   (two seats offline) keeps its own, the team keeps the first. Its state only moves forward
 *   (uploaded < processing < processed or failed), except that a video the service failed is replaced
 *   by a new upload of it. It is no stamp: the server's store applies the same rule (mergeVideo).
 */

/**
 * A member as the server holds it: its latest add and removal (server stamps) and the video. What a
 * seat sends has the same shape: its base as `added` and, when it holds the clip out, `removed` too.
 */
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

/** In the collection: never removed, or added after its last removal. */
export function memberPresent(m: Pick<MemberVersion, 'added' | 'removed'>): boolean {
  return m.removed === null || m.added.at > m.removed.at;
}

/** A member's presence as one field: present or not, stamped by the later of its add and removal. */
export function presenceField(m: Pick<MemberVersion, 'added' | 'removed'>): Versioned<boolean> {
  const present = memberPresent(m);
  return { value: present, stamp: present ? m.added : m.removed! };
}

/** The presence a seat holds after the server's version (`sent`: what its push sent of the member). */
export function takePresence(held: Held<boolean> | null, incoming: MemberVersion, sent?: MemberVersion): { field: Held<boolean>; lost: boolean } {
  return takeField(held, presenceField(incoming), sent && { value: memberPresent(sent) });
}

/** What a seat sends of a presence it holds: its base as the add, and a removal when it holds the clip out. */
export function presenceToSend(p: Held<boolean>, seatId: string): Pick<MemberVersion, 'added' | 'removed'> {
  const base = { at: p.stamp.at, by: p.pending ? seatId : p.stamp.by };
  return { added: base, removed: p.value ? null : base };
}

/** The video after another seat's version of it arrives. */
export function mergeVideo(held: MemberVersion['video'], incoming: MemberVersion['video']): MemberVersion['video'] {
  if (!incoming) return held;
  if (!held) return incoming;
  if (incoming.id === held.id) return RANK[incoming.state] > RANK[held.state] ? { ...held, state: incoming.state } : held;
  // Another video of the same clip: it replaces one the service failed (a retry), never a good one.
  return held.state === 'failed' && incoming.state !== 'failed' ? incoming : held;
}
