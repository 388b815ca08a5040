import { OutboxSync } from './outbox-sync';
import { toAppError } from '../../../../src-shared/errors';
import type { TeamChange } from '../server/change-store';
import {
  claimCollectionUpload,
  publishCollectionMember,
  readCollectionMembers,
  readCollectionMembersByKey,
  readCollectionMembersOfClips,
} from '../server/team-collection-store';
import type { TeamMember, TeamMemberKey } from '../../collections/collection-member-merge';
import type { TeamLink } from '../seat/team-link';
import { inTransaction } from '../server/pg-transaction';
import type { LeaseKeeper } from '../seat/lease-keeper';
import type { SeatScheduler } from '../seat/seat-scheduler';
import { localClipOfTeamClip, teamLinkOf } from '../team-replica-store';
import type { CatalogDb } from '../../catalog/open-catalog';
import { fingerprintOf } from '../../library/clip-store';
import { silentLogger, type Logger } from '../../util/logger';
import type { CollectionShare, UploadClaim, UploadRow } from '../../team-port';
import type { CollectionStore } from '../../collections/collection-store';
import type { VideoKey } from '../../collections/collection-video-row';

/**
 * A joined seat's collections (docs/notes-team-library.md): the service's collections belong to the
 * API key the team shares, so every seat lists the same ones; this shares what is in them. Offline
 * first, as marks are: every add, removal, video id and verdict is in the catalog and listed in its
 * outbox (collection-store.ts), joined or not; this sends the outbox when the team server answers
 * (when the link comes online, soon after a change, every `everyMs`), and merges what the other seats
 * changed (the feed's `collection_videos`, and the server's answer to each push) through the
 * store, by the rule of collections/collection-member-merge.ts: stamps are the server's, an add or
 * removal lands over the version it was made on, and one that lost is dropped and logged once. Members of a team clip this seat does not have wait and are read
 * again, whole, once the clip is linked here.
 *
 * It is also the upload's claim (CollectionShare): before sending a clip to a collection the stage
 * asks; the team's video is adopted, another seat's upload is waited for, and only a claim held here
 * uploads (renewed while it runs, released if it ends without a video id). Without an answer from the
 * server the seat uploads as a solo one would, and the video id is sent when the server is back.
 */
export interface TeamCollectionsSyncOptions {
  db: () => CatalogDb;
  link: TeamLink;
  /** The seat's one clock: this sync's round is registered with it. */
  scheduler: SeatScheduler;
  store: () => CollectionStore;
  /** A row changed: tell the views. */
  notify: (key: VideoKey) => void;
  /** The collections' counts changed: tell the views. */
  listChanged: () => void;
  /** Work to (re)start for these clips (a claim to try, a video to poll). */
  schedule: (clipIds: readonly number[]) => void;
  /** Stop the open work of these clips (their member was removed elsewhere). */
  cancel: (clipIds: readonly number[]) => void;
  /** Renews an upload's claim while the upload runs (its length is the keeper's leaseMs). */
  leases: LeaseKeeper;
  debounceMs?: number;
  everyMs?: number;
  logger?: Logger;
}

const TABLE = 'collection_videos';
const memberKey = (m: TeamMemberKey) => `${m.region}/${m.collectionId}/${m.teamClipId}`;
/** Outbox entries sent in one transaction. */
const PUSH_PAGE = 500;
/** While the team does not know the clip yet (it is linked before its analysis), look again this often, */
const UNLINKED_RETRY_MS = 2000;
/** for this long after the add; then upload as a solo seat (the video id is sent once the clip is linked). */
const UNLINKED_WAIT_MS = 120_000;

export class TeamCollectionsSync extends OutboxSync implements CollectionShare {
  private readonly log: Logger;

  constructor(private readonly o: TeamCollectionsSyncOptions) {
    super(o.scheduler, { what: 'collections', tables: [TABLE], debounceMs: o.debounceMs, everyMs: o.everyMs });
    this.log = o.logger ?? silentLogger;
  }

  async claim(row: UploadRow): Promise<UploadClaim> {
    const solo: UploadClaim = { kind: 'upload', hold: null };
    if (this.rounds.isStopped() || !this.o.link.online()) return solo;
    const link = teamLinkOf(this.o.db(), row.clipId);
    if (!link) {
      // A joined seat links each clip with a fingerprint before its analysis (syncs/clip-sharing.ts):
      // wait for that a while rather than risk a second upload; a clip without one is not the team's.
      const waited = Date.now() - row.attachedAt;
      return fingerprintOf(this.o.db(), row.clipId) && waited < UNLINKED_WAIT_MS
        ? { kind: 'wait', note: 'waiting for the team library to know this clip', retryMs: UNLINKED_RETRY_MS }
        : solo;
    }
    const key: TeamMemberKey = { collectionId: row.collectionId, region: row.region, teamClipId: link.teamClipId };
    const seat = this.o.link.seatId;
    let outcome;
    try {
      outcome = await this.o.link.withClient((c) => claimCollectionUpload(c, seat, key, row.replacesVideoId, this.o.leases.leaseMs));
    } catch (e) {
      this.log.info('team.collections.claim.detached', { kind: toAppError(e).kind, message: toAppError(e).message });
      return solo;
    }
    if (outcome.kind === 'adopt') return { kind: 'adopt', videoId: outcome.videoId, state: outcome.state };
    if (outcome.kind === 'wait') {
      const who = outcome.holder ?? 'another seat';
      // Its video id wakes this row at once (the feed); the lease's end is when it may be taken over.
      return { kind: 'wait', note: `being uploaded by ${who}`, retryMs: Math.max(1000, Math.ceil(outcome.leftMs) + 200) };
    }
    const kept = this.o.leases.keep({ kind: 'upload', key }, { collectionId: key.collectionId, teamClipId: key.teamClipId });
    return {
      kind: 'upload',
      hold: {
        end: (uploaded) => {
          if (uploaded) {
            kept.drop();
            this.edited();
          } else void kept.giveBack();
        },
      },
    };
  }

  /**
   * Sends the outbox, a page at a time, and reads the members back in the same transaction: the
   * answer carries the server's stamps of the adds and removals it took (the next change's base) and
   * its presence where it kept its own.
   */
  protected async push(): Promise<void> {
    const store = this.o.store();
    for (;;) {
      const out = store.unsentMembers(this.o.link.seatId, PUSH_PAGE);
      if (out.receipts.length === 0) return;
      let answer: TeamMember[] = [];
      if (out.members.length > 0) {
        answer = await this.o.link.withClient((c) =>
          inTransaction(c, async () => {
            for (const m of out.members) await publishCollectionMember(c, m);
            return readCollectionMembersByKey(c, out.members);
          }),
        );
      }
      store.membersSent(out.receipts);
      this.merge(answer, out.members);
      this.log.debug('team.collections.sent', { members: out.members.length });
      if (out.receipts.length < PUSH_PAGE) return;
    }
  }

  /** Members that arrived before their clip was linked here: read whole now that it is. */
  protected async catchUpLinked(): Promise<void> {
    const store = this.o.store();
    const teamClipIds = store.waitingClipsNowLinked();
    if (teamClipIds.length === 0) return;
    const members = await this.o.link.withClient((c) => readCollectionMembersOfClips(c, teamClipIds));
    this.merge(members);
    store.doneWaiting(teamClipIds);
  }

  protected async apply(_table: string, changes: readonly TeamChange[]): Promise<void> {
    const members = await this.o.link.withClient((c) => readCollectionMembers(c, changes.map((ch) => Number(ch.rowKey))));
    this.merge(members);
  }

  /** `sent`: what this seat's push sent, when these members are its answer. */
  private merge(members: readonly TeamMember[], sent: readonly TeamMember[] = []): void {
    const sentByKey = new Map(sent.map((m) => [memberKey(m), m.version]));
    const lost: string[] = [];
    const db = this.o.db();
    const store = this.o.store();
    const waiting: number[] = [];
    const schedule = new Set<number>();
    const cancel = new Set<number>();
    let changed = false;
    for (const m of members) {
      const clipId = localClipOfTeamClip(db, m.teamClipId);
      if (clipId === null) {
        waiting.push(m.teamClipId);
        continue;
      }
      const key = { collectionId: m.collectionId, region: m.region, clipId };
      const applied = store.applyTeamMember(this.o.link.seatId, key, m.version, sentByKey.get(memberKey(m)));
      if (applied.lost) lost.push(memberKey(m));
      if (!applied.changed) continue;
      changed = true;
      this.o.notify(key);
      if (applied.schedule) schedule.add(clipId);
      if (applied.cancel) cancel.add(clipId);
    }
    // the change is dropped as it is told, so each is told once
    if (lost.length > 0) this.log.info('team.collections.lost', { why: "changed on the server after the version this seat changed; the server's value stands", members: lost });
    if (waiting.length > 0) store.waitForClips(waiting);
    if (cancel.size > 0) this.o.cancel([...cancel]);
    if (schedule.size > 0) this.o.schedule([...schedule]);
    if (changed) this.o.listChanged();
  }
}
