import type { CatalogDb } from '../catalog/open-catalog';
import type { TeamMember } from './collection-member-merge';
import { versionOf, type MemberReceipt, type RawRow, type VideoKey } from './collection-video-row';

/**
 * The owner of `collection_outbox` and `collection_waiting`: the changes to members the team must
 * hear of (listed in the same transaction as the change, by collection-store.ts), and the team clips
 * whose members wait for this seat to have the clip.
 */
export function createCollectionOutboxStore(db: CatalogDb) {
  const q = {
    touchOutbox: db.prepare(`
      INSERT INTO collection_outbox (collection_id, region, clip_id, at) VALUES (?, ?, ?, ?)
      ON CONFLICT (collection_id, region, clip_id) DO UPDATE SET at = excluded.at`),
    outbox: db.prepare(`
      SELECT o.collection_id AS o_collection_id, o.region AS o_region, o.clip_id AS o_clip_id, o.at AS o_at, t.team_clip_id, cv.*
        FROM collection_outbox o
        LEFT JOIN collection_videos cv ON cv.collection_id = o.collection_id AND cv.region = o.region AND cv.clip_id = o.clip_id
        LEFT JOIN team_clips t ON t.clip_id = o.clip_id
       -- a clip the team does not know yet waits for its link; a row gone with its clip is only cleared
       WHERE cv.clip_id IS NULL OR t.team_clip_id IS NOT NULL
       ORDER BY o.at LIMIT ?`),
    sent: db.prepare('DELETE FROM collection_outbox WHERE collection_id = ? AND region = ? AND clip_id = ? AND at = ?'),
    wait: db.prepare('INSERT INTO collection_waiting (team_clip_id) VALUES (?) ON CONFLICT DO NOTHING'),
    waitingLinked: db.prepare('SELECT w.team_clip_id FROM collection_waiting w JOIN team_clips t ON t.team_clip_id = w.team_clip_id ORDER BY w.team_clip_id').pluck(),
    waited: db.prepare('DELETE FROM collection_waiting WHERE team_clip_id = ?'),
  };

  return {
    /** Lists a member changed at `t` for the team (inside the change's transaction). */
    touch(key: VideoKey, t: number): void {
      q.touchOutbox.run(key.collectionId, key.region, key.clipId, t);
    },

    /**
     * The changes not yet sent to the team, oldest first: members of linked clips as the team names
     * them, and the receipts to clear once sent (also of rows gone with their clip, which send nothing).
     */
    unsentMembers(seatId: string, limit: number): { members: TeamMember[]; receipts: MemberReceipt[] } {
      const rows = q.outbox.all(limit) as (RawRow & { o_collection_id: string; o_region: string; o_clip_id: number; o_at: number; team_clip_id: number | null })[];
      const members: TeamMember[] = [];
      const receipts: MemberReceipt[] = [];
      for (const r of rows) {
        const receipt = { collectionId: r.o_collection_id, region: r.o_region, clipId: r.o_clip_id, at: r.o_at };
        receipts.push(receipt);
        if (r.clip_id !== null && r.team_clip_id !== null) {
          members.push({ collectionId: r.collection_id, region: r.region, teamClipId: r.team_clip_id, version: versionOf(r, seatId) });
        }
      }
      return { members, receipts };
    },

    /** Sent: the entries are cleared unless a change came since they were read. */
    membersSent(receipts: readonly MemberReceipt[]): void {
      db.transaction(() => {
        for (const r of receipts) q.sent.run(r.collectionId, r.region, r.clipId, r.at);
      })();
    },

    /** Team clips with members this catalog does not have the clip of: looked at again once linked. */
    waitForClips(teamClipIds: readonly number[]): void {
      db.transaction(() => {
        for (const id of teamClipIds) q.wait.run(id);
      })();
    },

    waitingClipsNowLinked(): number[] {
      return q.waitingLinked.all() as number[];
    },

    doneWaiting(teamClipIds: readonly number[]): void {
      db.transaction(() => {
        for (const id of teamClipIds) q.waited.run(id);
      })();
    },
  };
}
