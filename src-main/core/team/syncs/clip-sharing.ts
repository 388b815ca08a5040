import type { ClientBase } from 'pg';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import { clipsWithContent } from '../../library/clip-place-store';
import { catalogueTeamShareEntry, type TeamShareEntry } from '../../library/team-share-entries';
import { catalogueTeamUrlClip, URL_PROFILE_ID } from '../../library/remote-clips';
import { getClipRow, pathOf } from '../../library/clip-store';
import { publishClipResults, readClipResults, type ClipResults, type PublishOutcome } from '../server/clip-results-store';
import { adoptTeamClip, adoptTeamUrlClip, recordTeamClipLocation, type PublishedUrlClip } from '../server/team-clip-store';
import { rootKeyOf } from '../rules/root-map';
import { endStallingSessions } from '../server/seat-store';
import { lookAtClipJob, reapExpiredTeamLeases, type TeamLease } from '../server/team-job-store';
import { recordTeamTask, recordTeamUpload, teamTasks, teamUploadKeys } from '../server/journal-store';
import type { TensorService } from '../../tensors/chunk-upload';
import type { KeptLease, LeaseKeeper } from '../seat/lease-keeper';
import type { SeatRound, SeatScheduler } from '../seat/seat-scheduler';
import type { TeamLink } from '../seat/team-link';
import { clipIndexedWith, linkTeamClip, localClipOfTeamClip, notePublished, teamLinkOf, unlinkedClipIds, unlinkedUrlClipIds, unpublishedClipIds } from '../team-replica-store';
import { silentLogger, type Logger } from '../../util/logger';
import type { ClipShare, ShareDecision } from '../../team-port';
import type { SegmentStore } from '../../pipeline/service-cache/segment-store';
import { copyTeamResults } from './team-results-copy';
import { ownResults } from './own-results';

/**
 * A seat's share of a team library's indexing (docs/notes-team-library.md): each clip is decoded,
 * uploaded and billed by one seat, the one that claims its `analysis` job in the team's queue (a
 * lease, renewed while it works); the others wait, then copy the results it publishes (shots,
 * segments, embeddings, tags) into their own catalog and index them locally. Probe and poster stay
 * on every seat that has the file (they are its own facts and seconds of work).
 *
 * While the server cannot be reached a seat indexes its clips itself and publishes when it is back;
 * a clip another seat published meanwhile keeps this seat's own results (the same model), and that
 * clip was billed twice: the price of working detached (README "Team library").
 */

/** The team stage that stands for a clip's indexing past the poster (analysis, upload, submit, poll, index). */
const SHARED_STAGE = 'analysis';
/** A clip held by another seat is looked at again at least this often (its results usually wake it sooner). */
const MAX_WAIT_MS = 15_000;
/** A clip this seat stopped working on is not claimable again (by anyone) for this long: another seat's waiting job comes first. */
const RELEASE_PAUSE_MS = 2000;

export interface ClipSharingOptions {
  db: CatalogDb;
  /** App cache folder: the thumbnails' files are under its thumbs/. */
  cacheDir: string;
  store: SegmentStore;
  link: TeamLink;
  profileId: string;
  identity: () => { region: string; model: string };
  /** The seat's one clock: the look at the clips held and the reaper are rounds of it. */
  scheduler: SeatScheduler;
  /** Renews the leases of the clips claimed here (their length is its leaseMs). */
  leases: LeaseKeeper;
  /** Expired leases of any seat go back to the queue this often. */
  reapEveryMs?: number;
  /** A clip's waiting job may look again now: another seat's results have arrived. */
  wake: (clipId: number) => void;
  /** Whether this seat's queue still has work of the clip waiting or running (not failed, cancelled or paused). */
  working: (clipId: number) => boolean;
  /**
   * Told when a job of a clip stopped in this seat's queue (failed, cancelled or paused): a clip this
   * seat holds and no longer works on goes back to the team at once, not at the next renewal.
   */
  onWorkStopped?: (listener: (clipId: number) => void) => () => void;
  /** A local clip was linked to its team clip (the team's marks of it may now be merged here). */
  linked?: (clipId: number) => void;
  logger?: Logger;
}

export class ClipSharing implements ClipShare {
  private readonly held = new Map<number, { lease: TeamLease; kept: KeptLease }>();
  private readonly leaseMs: number;
  private readonly log: Logger;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly rounds: SeatRound[];
  private stopped = false;
  private publishing: Promise<void> = Promise.resolve();

  constructor(private readonly o: ClipSharingOptions) {
    this.leaseMs = o.leases.leaseMs;
    this.log = o.logger ?? silentLogger;
    this.rounds = [
      o.scheduler.register({ what: 'share.held', run: () => this.lookAtHeld(), everyMs: Math.max(1000, Math.floor(this.leaseMs / 3)) }),
      o.scheduler.register({ what: 'share.reap', run: () => this.reap(), everyMs: o.reapEveryMs ?? 5000 }),
    ];
  }

  /** Sessions holding other seats on a lock are ended first (their leases could not be renewed), then expired leases go back to the queue. */
  private async reap(): Promise<void> {
    const ended = await this.o.link.withClient(async (c) => {
      const n = await endStallingSessions(c);
      await reapExpiredTeamLeases(c, 20);
      return n;
    });
    if (ended > 0) this.log.warn('team.stalls.ended', { sessions: ended });
  }

  start(): void {
    this.unsubscribe.push(
      this.o.link.onChanges('clip_results', async (changes) => {
        for (const ch of changes) {
          const clipId = localClipOfTeamClip(this.o.db, Number(ch.rowKey));
          if (clipId !== null && teamLinkOf(this.o.db, clipId)?.resultsFrom === null && !clipIndexedWith(this.o.db, clipId, this.o.profileId)) this.o.wake(clipId);
        }
      }),
      this.o.link.onOnline((online) => {
        if (online) this.catchUp();
      }),
    );
    if (this.o.onWorkStopped) {
      this.unsubscribe.push(
        this.o.onWorkStopped((clipId) => {
          if (this.held.has(clipId) && !this.o.working(clipId) && !clipIndexedWith(this.o.db, clipId, this.o.profileId)) void this.release([clipId], RELEASE_PAUSE_MS);
        }),
      );
    }
    for (const r of this.rounds) r.start();
    this.catchUp();
  }

  /** The seat quits or leaves: the clips it holds go back to the team at once instead of when their leases run out. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    await Promise.all(this.rounds.map((r) => r.stop()));
    await this.publishing;
    await this.release([...this.held.keys()], 0);
  }

  /**
   * The leases of clips this seat stops working on (its work stopped here, or the seat quits) go back
   * to the team's queue now instead of when they run out; not claimable for `pauseMs`, so another
   * seat's waiting clip comes before this seat's own resume. Never throws: a lease that could not be
   * given back runs out.
   */
  private async release(clipIds: readonly number[], pauseMs: number): Promise<void> {
    const kept = clipIds.flatMap((clipId) => {
      const h = this.held.get(clipId);
      this.held.delete(clipId);
      return h ? [h.kept] : [];
    });
    await Promise.all(kept.map((k) => k.giveBack(pauseMs)));
  }

  /**
   * Before a clip's analysis: this seat does it (it claimed the clip, or the server is away), or the
   * team has its results (copied into the catalog now), or another seat is at it (wait).
   */
  async beforeAnalysis(clipId: number): Promise<ShareDecision> {
    try {
      return await this.o.link.withClient(async (c) => {
        const teamClipId = await this.linked(c, clipId);
        // One round trip while the clip waits for another seat (it looks every few seconds).
        const look = await lookAtClipJob(c, { seat: this.o.link.seatId, clipId: teamClipId, stage: SHARED_STAGE, profileId: this.o.profileId, leaseMs: this.leaseMs });
        if (look.kind === 'claimed') {
          const lease = { id: look.job.id, token: look.job.token };
          this.held.set(clipId, { lease, kept: this.o.leases.keep({ kind: 'job', lease }, { clipId, jobId: lease.id }, () => this.held.delete(clipId)) });
          return { kind: 'here' };
        }
        if (look.kind === 'published') {
          const results = await readClipResults(c, teamClipId, this.o.profileId);
          // An offline entry whose file turned up here (it has the team's results already): where this
          // seat has it is news to the team, and what the seat learns its share roots from.
          if (results && teamLinkOf(this.o.db, clipId)?.resultsFrom != null) {
            await this.recordPlace(c, clipId, teamClipId);
            this.o.linked?.(clipId);
          }
          if (results) {
            this.adopt(clipId, results);
            return { kind: 'adopted', from: results.publishedBy };
          }
        }
        if (look.kind === 'requeued') {
          // It failed on the seat that tried (its copy of the file, its tools): this seat tries its own.
          return { kind: 'wait', delayMs: 0, note: `failed on another seat (${look.lastError ?? 'no reason given'}): trying here` };
        }
        const next = look.kind === 'elsewhere' ? look.nextInMs : null;
        return {
          kind: 'wait',
          delayMs: Math.min(MAX_WAIT_MS, Math.max(1000, (next ?? MAX_WAIT_MS) + 500)),
          note: look.kind === 'elsewhere' && look.holder ? `being indexed by ${look.holder}` : 'waiting for the team',
        };
      });
    } catch (e) {
      const err = toAppError(e);
      // The server holds this seat's writes for a moment (its write budget, team migration 0009): the
      // team is there, so the clip waits and looks again rather than being indexed (and paid) twice.
      if (err.kind === 'rate_limit') return { kind: 'wait', delayMs: Math.min(MAX_WAIT_MS, Math.max(1000, err.retryAfterMs ?? 1000)), note: 'the team server asks this seat to slow down' };
      // Detached: whatever keeps the team from answering (the server away, a password rotated, a
      // schema this app does not know), the seat's own work goes on here and is published later.
      this.log.warn('team.share.detached', { clipId, kind: err.kind, message: err.message });
      return { kind: 'here' };
    }
  }

  takenOver(clipId: number): boolean {
    return (this.held.get(clipId)?.lease.token ?? 0) > 1;
  }

  knownUploads(clipId: number, region: string, requestIds: readonly string[]): Promise<Map<string, string>> {
    return this.journal(clipId, (c, teamClipId) => teamUploadKeys(c, teamClipId, region, requestIds), new Map());
  }

  knownTasks(clipId: number, region: string, uploadRequestIds: readonly string[]): Promise<Map<string, string>> {
    return this.journal(clipId, (c, teamClipId) => teamTasks(c, teamClipId, region, uploadRequestIds), new Map());
  }

  async uploaded(clipId: number, requestId: string, region: string, storageKeysJson: string): Promise<void> {
    await this.journal(clipId, (c, teamClipId) => recordTeamUpload(c, this.o.link.seatId, { teamClipId, requestId, region, storageKeysJson }), undefined);
  }

  async submitted(clipId: number, uploadRequestId: string, kind: TensorService, region: string, taskId: string): Promise<void> {
    await this.journal(clipId, (c, teamClipId) => recordTeamTask(c, this.o.link.seatId, { teamClipId, uploadRequestId, kind, region, taskId }), undefined);
  }

  /**
   * The team's journal of the local clip's team clip (rows of other clips are never read: team
   * migration 0015; an unlinked clip has none there). A help, never a condition: a server that does not
   * answer makes the stage work as a solo seat's, and a detached seat does not wait on it at every segment.
   */
  private async journal<T>(clipId: number, f: (c: ClientBase, teamClipId: number) => Promise<T>, fallback: T): Promise<T> {
    const link = teamLinkOf(this.o.db, clipId);
    if (!link || !this.o.link.online()) return fallback;
    try {
      return await this.o.link.withClient((c) => f(c, link.teamClipId));
    } catch (e) {
      this.log.debug('team.journal.unavailable', { clipId, message: toAppError(e).message });
      return fallback;
    }
  }

  /** The clip is indexed in this catalog: its results go to the team unless they came from it. */
  indexed(clipId: number): void {
    this.publishing = this.publishing
      .then(() => this.publish(clipId))
      .catch((e) => {
        const err = toAppError(e);
        this.log.warn('team.publish.failed', { clipId, kind: err.kind, message: err.message });
        // Held back by the server's write budget: sent again once it holds the write, not at the next reconnection.
        // A one-off retry after the server's hint, not periodic work: no round of the scheduler.
        if (err.kind === 'rate_limit' && !this.stopped) {
          const t = setTimeout(() => !this.stopped && this.indexed(clipId), Math.max(1000, err.retryAfterMs ?? 1000));
          t.unref?.();
        }
      });
  }


  /**
   * A team clip whose file this seat cannot reach (team/syncs/clip-arrivals.ts) listed all the same:
   * an offline entry at the share and path another seat recorded, linked to the team's clip, with the
   * team's results copied as for a clip this seat has (poster, tags, search, and the team's marks once
   * linked), indexed. Returns its id; null when the team has no results of it for this profile.
   */
  placeAway(teamClipId: number, entry: Omit<TeamShareEntry, 'durationS'>): Promise<number | null> {
    return this.place(teamClipId, this.o.profileId, (durationS) =>
      // Imported meanwhile (the editor's drop, while the results were read): that clip is the team's, no entry.
      clipsWithContent(this.o.db, entry.fingerprint, entry.sizeBytes).length > 0 ? null : catalogueTeamShareEntry(this.o.db, { ...entry, durationS }),
    );
  }

  /**
   * A clip another seat added by URL (team/syncs/clip-arrivals.ts) listed here as a URL clip of this
   * seat's own: at its address (shown instead of a share's path, played and read through this seat's
   * address rules), with the team's results of the service's reading of it (poster, tags, search,
   * marks). Returns its id; null when the team has no results of it, or this seat added the address itself.
   */
  placeUrlClip(teamClipId: number, clip: PublishedUrlClip & { name: string }): Promise<number | null> {
    return this.place(teamClipId, URL_PROFILE_ID, (durationS) => catalogueTeamUrlClip(this.o.db, { url: clip.sourceUrl, name: clip.name, durationS }));
  }

  /**
   * A team clip with no file of it here, catalogued by `catalogue` (given where the team's shots end),
   * linked to the team's clip and indexed with the team's results for the profile, in one transaction.
   */
  private async place(teamClipId: number, profileId: string, catalogue: (durationS: number | null) => number | null): Promise<number | null> {
    const results = await this.o.link.withClient((c) => readClipResults(c, teamClipId, profileId));
    if (!results) return null;
    const { db } = this.o;
    const clipId = db.transaction(() => {
      if (localClipOfTeamClip(db, teamClipId) !== null) return null;
      const id = catalogue(results.shots.reduce<number | null>((end, s) => Math.max(end ?? 0, s.endS), null));
      if (id === null) return null;
      linkTeamClip(db, id, teamClipId);
      this.adopt(id, results);
      this.o.store.markIndexed(id, profileId);
      return id;
    })();
    if (clipId !== null) this.o.linked?.(clipId);
    return clipId;
  }

  /**
   * The team clip of a local clip: found or made by fingerprint, its place recorded, or by the address
   * a clip added by URL comes from (refused: `invalid`, the clip stays this seat's alone); the link kept.
   */
  private async linked(c: ClientBase, clipId: number): Promise<number> {
    const known = teamLinkOf(this.o.db, clipId);
    if (known) return known.teamClipId;
    const row = getClipRow(this.o.db, clipId);
    if (row.source_url !== null) {
      const team = await adoptTeamUrlClip(c, { sourceUrl: row.source_url, fileName: row.file_name, seatId: this.o.link.seatId });
      if (team instanceof AppError) throw team;
      linkTeamClip(this.o.db, clipId, team.id);
      this.o.linked?.(clipId);
      return team.id;
    }
    if (!row.fingerprint) throw new AppError('invalid', `clip ${clipId} has no fingerprint yet: the team knows clips by content`);
    const team = await adoptTeamClip(c, { fingerprint: row.fingerprint, sizeBytes: row.size_bytes, fileName: row.file_name, seatId: this.o.link.seatId });
    await this.recordPlace(c, clipId, team.id);
    linkTeamClip(this.o.db, clipId, team.id);
    this.o.linked?.(clipId);
    return team.id;
  }

  /** Where this seat has the clip, for the team (other seats find their copies, and learn their share roots, from it). */
  private async recordPlace(c: ClientBase, clipId: number, teamClipId: number): Promise<void> {
    const row = getClipRow(this.o.db, clipId);
    const rootKey = rootKeyOf({ label: row.volume_label, mountPath: row.mount_path });
    const refused = await recordTeamClipLocation(c, { clipId: teamClipId, rootKey, relPath: row.rel_path.replace(/^\/+/, '') || row.file_name, seatId: this.o.link.seatId });
    // A local name no other seat could be pointed at safely (a newline in it, say): other seats find the clip through their own copies.
    if (refused) this.log.warn('team.location.refused', { clipId, message: refused.message });
  }

  /** Another seat's results, written through the catalog's owners as if this seat had computed them. */
  private adopt(clipId: number, r: ClipResults & { publishedBy: string }): void {
    copyTeamResults(this.o, clipId, r);
    this.log.info('team.results.adopted', { clipId, from: r.publishedBy, segments: r.segments.length });
  }

  private async publish(clipId: number): Promise<void> {
    const clip = pathOf(this.o.db, clipId);
    if (!clip) return; // deleted meanwhile
    const url = clip.sourceUrl;
    // A clip added by URL has no analysis to link it before: it is linked when it is indexed.
    const link = teamLinkOf(this.o.db, clipId) ?? (url !== null ? await this.linkUrlClip(clipId) : null);
    if (!link || link.resultsFrom !== null) return;
    // The service's reading of the address (Add by URL) is the same for every seat, whatever its own profile.
    const profileId = url !== null ? URL_PROFILE_ID : this.o.profileId;
    if (!clipIndexedWith(this.o.db, clipId, profileId)) return;
    const results = ownResults(this.o, clipId, { teamClipId: link.teamClipId, profileId, ...this.o.identity() });
    if (!results) return;
    const seat = this.o.link.seatId;
    const out = await this.o.link.withClient(async (c): Promise<PublishOutcome | 'elsewhere'> => {
      // Only the holder of a clip's job publishes its results (team migration 0011). A seat that did
      // the work without a lease (detached from the server, indexed before joining) or whose lease ran
      // out in a long stall takes the job now, unless the team has the results or another seat holds it.
      const held = this.held.get(clipId)?.lease;
      const first = held ? await publishClipResults(c, seat, held, results) : null;
      if (first && (first.ok || first.refused === 'too-large')) return first;
      const look = await lookAtClipJob(c, { seat, clipId: link.teamClipId, stage: SHARED_STAGE, profileId, leaseMs: this.leaseMs });
      if (look.kind === 'published') return { ok: true, published: false };
      if (look.kind !== 'claimed') return 'elsewhere';
      return publishClipResults(c, seat, { id: look.job.id, token: look.job.token }, results);
    });
    this.held.get(clipId)?.kept.drop();
    this.held.delete(clipId);
    // Another seat holds the clip: its holder publishes, and this seat's next catch-up finds them.
    if (out === 'elsewhere') return;
    if (out.ok) notePublished(this.o.db, clipId);
    else if (out.refused === 'too-large') this.log.warn('team.results.too_large', { clipId, message: out.error.message });
    this.log.info('team.results.published', { clipId, teamClipId: link.teamClipId, published: out.ok && out.published, segments: results.segments.length });
  }

  /** A clip added by URL here, linked to the team's clip of its address; null when the address is not one the team keeps (logged). */
  private async linkUrlClip(clipId: number) {
    try {
      await this.o.link.withClient((c) => this.linked(c, clipId));
    } catch (e) {
      const err = toAppError(e);
      if (err.kind !== 'invalid') throw err;
      this.log.warn('team.url.refused', { clipId, message: err.message });
      return null;
    }
    return teamLinkOf(this.o.db, clipId);
  }

  /**
   * Every third of a lease (the lease keeper renews the clips this seat still works on): a clip indexed
   * here whose results did not reach the team is published again; a clip whose work stopped here
   * (failed, cancelled, paused) goes back to the team's queue for another seat, after a pause so this
   * seat does not claim it straight back.
   */
  private async lookAtHeld(): Promise<void> {
    const stopped: number[] = [];
    for (const clipId of this.held.keys()) {
      if (clipIndexedWith(this.o.db, clipId, this.o.profileId)) this.indexed(clipId);
      else if (!this.o.working(clipId)) stopped.push(clipId);
    }
    await this.release(stopped, RELEASE_PAUSE_MS);
  }

  /** Back in touch: local clips the team does not know yet are linked, and results made meanwhile published. */
  private catchUp(): void {
    this.publishing = this.publishing
      .then(async () => {
        for (let ids = unlinkedClipIds(this.o.db, 200); ids.length > 0; ids = unlinkedClipIds(this.o.db, 200)) {
          await this.o.link.withClient(async (c) => {
            for (const id of ids) await this.linked(c, id);
          });
        }
        // Clips added by URL are linked as they are published (one whose address the team refuses stays this seat's).
        for (const id of unlinkedUrlClipIds(this.o.db, 10_000)) await this.publish(id);
        for (const profileId of [this.o.profileId, URL_PROFILE_ID]) for (const id of unpublishedClipIds(this.o.db, profileId, 10_000)) await this.publish(id);
      })
      .catch((e) => this.log.debug('team.catchup.deferred', { message: toAppError(e).message }));
  }
}
