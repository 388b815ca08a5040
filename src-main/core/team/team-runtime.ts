import type { CatalogDb } from '../catalog/open-catalog';
import type { CollectionsModule } from '../collections/collections-module';
import { TeamCollectionsSync } from './syncs/collections-sync';
import { TeamClipArrivals } from './syncs/clip-arrivals';
import { TeamMarksSync } from './syncs/marks-sync';
import type { PeopleService } from '../people/people-service';
import { TeamPeopleSync } from './syncs/people-sync';
import { ClipSharing } from './syncs/clip-sharing';
import type { IndexingPipeline } from '../pipeline/indexing-pipeline';
import type { EventBus } from '../rpc/event-bus';
import { TeamTextSharing } from './syncs/text-sharing';
import { LeaseKeeper } from './seat/lease-keeper';
import { TeamPace, type SharedKeyPace } from './seat/team-pace';
import { TeamSeat } from './seat/team-seat';
import type { TeamSettings } from './seat/team-settings';
import { teamClipCounts } from './team-replica-store';
import type { Logger } from '../util/logger';
import type { TeamRuntime } from '../team-port';

/**
 * The team library while this workstation is joined (docs/notes-team-library.md): the seat's link
 * to the server (team/seat/team-seat.ts), its one clock (seat-scheduler.ts) and its lease keeper
 * (lease-keeper.ts), and the syncs that work through them (team/syncs/), started at once when the
 * catalog opens joined, or when the user joins, and stopped when they leave. Solo, nothing runs.
 */

export interface TeamRuntimeOptions {
  settings: TeamSettings;
  db: CatalogDb;
  events: EventBus;
  /** App cache folder (thumbnails). */
  cacheDir: string;
  pipeline: IndexingPipeline;
  /** The service's collections: what is in them is shared between the seats. */
  collections: Pick<CollectionsModule, 'store' | 'notify' | 'scheduler' | 'listChanged'>;
  identity: () => { region: string; model: string };
  logger: Logger;
  /** Lease of a claimed clip (default 30 s; web mode's --team-lease-seconds). */
  leaseMs?: number;
  /** The library's import: other seats' clips found on this seat's drives enter the catalog through it. */
  importFiles: (paths: string[]) => Promise<unknown>;
  /** A seat held by its server (another schema version, a refused password) looks again this often (default 60 s). */
  recheckMs?: number;
  /** People by name: what editors name is shared with the other seats (never a face's embedding). */
  people: PeopleService;
  /** The service key the seat sends with now (null: none configured): the team's rate holds it. */
  serviceKey: () => SharedKeyPace | null;
}


export function createTeamRuntime(o: TeamRuntimeOptions): TeamRuntime {
  let running: { seat: TeamSeat; leases: LeaseKeeper; sharing: ClipSharing; texts: TeamTextSharing; marks: TeamMarksSync; collections: TeamCollectionsSync; arrivals: TeamClipArrivals; people: TeamPeopleSync; pace: TeamPace } | null = null;
  let stopping: Promise<void> = Promise.resolve();

  const stopRunning = async () => {
    const r = running;
    running = null;
    if (!r) return;
    await r.pace.stop();
    await r.arrivals.stop();
    await r.sharing.stop();
    await r.marks.stop();
    await r.people.stop();
    await r.collections.stop();
    // Last: what the syncs still hold (a bank of reference queries, an upload's claim) goes back.
    await r.leases.stop();
    await r.seat.stop();
  };
  const restart = () => {
    stopping = stopping.then(stopRunning).then(startIfJoined, (e: unknown) => o.logger.warn('team.runtime.restart.failed', { message: (e as Error).message }));
  };
  const startIfJoined = () => {
    const joined = o.settings.joined();
    if (!joined) return;
    const seat = new TeamSeat({
      ...joined,
      db: o.db,
      logger: o.logger,
      appSchemaVersion: o.settings.appSchemaVersion(),
      recheckMs: o.recheckMs,
      // Settings' "Last check" follows the link: a held seat does not show the join's green check.
      onChecked: (check) => o.settings.recordCheck(joined.seatId, check),
    });
    const scheduler = seat.scheduler;
    const leases = new LeaseKeeper({ link: seat, scheduler, leaseMs: o.leaseMs, log: o.logger });
    const sharing = new ClipSharing({
      db: o.db,
      cacheDir: o.cacheDir,
      store: o.pipeline.store,
      link: seat,
      profileId: o.pipeline.profile.id,
      identity: o.identity,
      scheduler,
      leases,
      wake: (clipId) => o.pipeline.queue.wakeClip(clipId, 'analysis'),
      working: (clipId) => o.pipeline.queue.list({ clipId, states: ['queued', 'running'] }).length > 0,
      onWorkStopped: (listener) =>
        o.pipeline.queue.onJob((job) => {
          if (job.clipId !== null && (job.state === 'failed' || job.state === 'cancelled' || job.state === 'paused')) listener(job.clipId);
        }),
      // The team's marks and collection members of a clip just linked are merged with the next round, not the
      // 30 s one; the team's clips not found here are looked for again (the clip may be the first of their share).
      linked: () => {
        marks.edited();
        people.edited();
        collections.edited();
        arrivals.linked();
      },
      logger: o.logger,
    });
    const arrivals = new TeamClipArrivals({
      db: o.db,
      link: seat,
      scheduler,
      profileId: o.pipeline.profile.id,
      importFiles: o.importFiles,
      placeAway: async (teamClipId, entry) => {
        const clipId = await sharing.placeAway(teamClipId, entry);
        if (clipId !== null) o.events.emit('catalog.changed', { reason: 'team', clipIds: [clipId] });
        return clipId;
      },
      placeUrl: async (teamClipId, clip) => {
        const clipId = await sharing.placeUrlClip(teamClipId, clip);
        if (clipId !== null) o.events.emit('catalog.changed', { reason: 'team', clipIds: [clipId] });
        return clipId;
      },
      logger: o.logger,
    });
    const marks = new TeamMarksSync({ db: () => o.db, link: seat, scheduler, events: o.events, logger: o.logger });
    const people = new TeamPeopleSync({ db: () => o.db, link: seat, scheduler, service: () => o.people, events: o.events, logger: o.logger });
    const collections = new TeamCollectionsSync({
      db: () => o.db,
      link: seat,
      scheduler,
      store: () => o.collections.store,
      notify: o.collections.notify,
      listChanged: o.collections.listChanged,
      schedule: (clipIds) => o.collections.scheduler.schedule(clipIds),
      cancel: (clipIds) => o.collections.scheduler.cancel(clipIds),
      leases,
      logger: o.logger,
    });
    const pace = new TeamPace({ link: seat, scheduler, key: o.serviceKey, logger: o.logger });
    pace.start();
    leases.start();
    sharing.start();
    marks.start();
    people.start();
    collections.start();
    arrivals.start();
    seat.start();
    running = { seat, leases, sharing, texts: new TeamTextSharing({ link: seat, leases, logger: o.logger }), marks, collections, arrivals, people, pace };
  };
  const unsubscribe = o.settings.onChanged(restart);
  startIfJoined();

  return {
    share: () => running?.sharing ?? null,
    marksEdited: () => running?.marks.edited(),
    peopleEdited: () => running?.people.edited(),
    textShare: () => running?.texts ?? null,
    collectionShare: () => running?.collections ?? null,
    activity: () => {
      const joined = running !== null;
      const notHere = running?.arrivals.notFound() ?? { clips: 0, shares: [] };
      return { joined, online: running?.seat.online() ?? false, ...teamClipCounts(o.db), notHere: notHere.clips, notHereShares: notHere.shares, held: running?.seat.heldBecause() ?? null };
    },
    async stop() {
      unsubscribe();
      await stopping;
      await stopRunning();
    },
  };
}
