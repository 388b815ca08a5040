import path from 'node:path';
import type { CatalogDb } from './catalog/open-catalog';
import { checkpointAfterSave } from './catalog/checkpoint';
import type { createCatalogHandlers } from './catalog/catalog-handlers';
import type { createSettingsHandlers } from './settings/settings-handlers';
import { createDispatcher, type Dispatch } from './rpc/dispatcher';
import type { EventBus } from './rpc/event-bus';
import type { Handlers } from './rpc/handlers';
import type { PreferencesService } from './settings/preferences';
import type { ToolPaths } from './settings/tool-paths';
import type { Logger } from './util/logger';
import type { DiskGuard } from './util/disk-space';
import { readUnder } from './util/open-verified';
import { AppError } from '../../src-shared/errors';
import { METHODS, type MethodName } from '../../src-shared/contract';
import { createMediaResolver, type MediaResolver } from './media-resolver';
import { createPlaybackHandlers, createProxyFileOpen, createStreamSource } from './proxies/proxy-handlers';
import { createRangeStreams } from './proxies/range-streams';
import { createClipFiles } from './library/clip-file';
import type { ServiceProvider } from './service-provider';
import { createLibraryService } from './library/library-handlers';
import { posterPathOf } from './library/thumbnail-store';
import { createMarksHandlers } from './marks/marks-handlers';
import { createSelectsHandlers } from './library/selects';
import { createExportHandlers } from './export/export-handlers';
import { createServiceActionsHandlers } from './service-actions/service-actions-handlers';
import { createFilesHandlers, type DesktopShell } from './files/files-handlers';
import { createAppPipeline } from './pipeline/app-pipeline';
import { createCollectionsModule } from './collections/collections-module';
import { createSearchModule, searchServiceBinding } from './search/search-module';
import type { RemoteAccess } from './remote/remote-input';
import { createRemoteClipStream, type RemoteClipStream } from './remote/remote-clip-stream';
import type { TeamOptInHandlers, TeamRoom, TeamRuntime } from './team-port';
import { remoteUrlRefusal } from './remote/remote-url-policy';
import { createPeopleModule } from './people/people-module';

/** What the app builds on one open catalog (catalog-session.ts rebuilds it when the catalog changes). */
export interface CatalogApp {
  dispatch: Dispatch;
  resolveMedia: MediaResolver;
  openRemoteClip: RemoteClipStream;
  dispose(): Promise<void>;
}

/** Settings, the team's opt-in and the catalog's own methods: they answer whatever state the catalog is in. */
export type OwnHandlers = ReturnType<typeof createSettingsHandlers> & TeamOptInHandlers & ReturnType<typeof createCatalogHandlers>;

/** What the parts on an open catalog need from the app around them (app-core.ts). */
export interface CatalogAppNeeds {
  dataDir: string;
  paths: { cacheDir: string; thumbsDir: string };
  events: EventBus;
  logger: Logger;
  preferences: PreferencesService;
  service: ServiceProvider;
  tools: ToolPaths;
  disk: DiskGuard;
  /** The team room (opened by the settings module): the seat's runtime of this catalog comes from it. */
  team: TeamRoom;
  remote: () => RemoteAccess;
  desktop?: DesktopShell;
  teamLeaseMs?: number;
  teamRecheckMs?: number;
  /** The handlers that answer whatever state the catalog is in: settings, the team's opt-in, the catalog's own. */
  own: OwnHandlers;
  /** The catalog session's words for an error (a full disk names the folder). */
  explain: (e: AppError) => AppError;
  /** The first clips catalogued are what the first backup is for (catalog-backups.ts). */
  backupIfDue: () => void;
  /** Set while the parts stand: what a change of key or address means to them. */
  onSettingsChanged: (listener: () => void) => void;
}

/** A poster shown under the pointer in a drag is a small JPEG; anything bigger in its place is not read. */
const MAX_DRAG_ICON = 4 * 1024 * 1024;

const dispatcher = (n: CatalogAppNeeds, handlers: Handlers) => createDispatcher(handlers, n.logger, n.explain);

/** No catalog open (damaged, or no room for it yet): settings and the catalog's own methods answer; everything else says why not. */
export function recoveryApp(n: CatalogAppNeeds, refusal: () => AppError): CatalogApp {
  const refuse = () => {
    throw refusal();
  };
  const handlers = Object.fromEntries((Object.keys(METHODS) as MethodName[]).map((m) => [m, (n.own as Partial<Handlers>)[m] ?? refuse])) as unknown as Handlers;
  return { dispatch: dispatcher(n, handlers), resolveMedia: async () => null, openRemoteClip: async () => null, dispose: async () => {} };
}

/** The whole app on an open catalog; `readOnly` (a full disk) starts nothing that writes. */
export function composeCatalogApp(n: CatalogAppNeeds, db: CatalogDb, readOnly: boolean): CatalogApp {
  const { events, logger, paths, preferences, service, tools, disk } = n;
  const shutdown = new AbortController();
  const clipFiles = createClipFiles(db);
  // A seat of a team library divides the indexing with the other seats (none while read-only).
  let team: TeamRuntime | null = null;
  const room = { room: () => disk.room(), metFullDisk: () => void disk.metFullDisk(), describe: () => `${disk.describe()} Work carries on by itself once there is room; nothing is lost.` };
  const people = createPeopleModule({ db, events, recognition: () => preferences.get().faceRecognition, edited: () => team?.peopleEdited() });
  const pipeline = createAppPipeline({
    db,
    events,
    service,
    cacheDir: paths.cacheDir,
    tools: tools.tools,
    logger,
    options: {
      disk: room,
      share: () => team?.share() ?? null,
      proxySettings: () => ({ policy: preferences.get().proxies, budgetBytes: preferences.get().proxyBudgetGb * 1e9 }),
      onClipAnalysed: (clipId) => people.service.clipAnalysed(clipId),
      faceRecognition: () => preferences.get().faceRecognition,
    },
  });
  const library = createLibraryService({
    db,
    events,
    cacheDir: paths.cacheDir,
    logger,
    signal: shutdown.signal,
    // The one runner: posters, shots, thumbnails and indexing are all stages of the pipeline.
    indexClips: (ids, opts) => pipeline.pipeline.enqueueClips(ids, opts),
    indexStates: (ids) => pipeline.pipeline.indexStates(ids),
    beforeImport: () => disk.require(),
    afterImport: () => n.backupIfDue(),
    ...(readOnly ? { pollOnStart: false, volumePollMs: 0 } : {}),
  });
  const collections = createCollectionsModule({
    db,
    events,
    logger,
    cacheDir: paths.cacheDir,
    region: () => preferences.get().region,
    client: () => service.client(),
    ffmpeg: tools.ffmpegBinary,
    queue: pipeline.pipeline.queue,
    share: () => team?.collectionShare() ?? null,
  });
  if (!readOnly) {
    team = n.team.runtime({
      db,
      events,
      cacheDir: paths.cacheDir,
      pipeline: pipeline.pipeline,
      collections,
      identity: () => service.identity(),
      logger,
      leaseMs: n.teamLeaseMs,
      recheckMs: n.teamRecheckMs,
      importFiles: (files) => library.importPaths(files, 'team'),
      people: people.service,
      serviceKey: () => {
        try {
          return service.client().transport.keyState;
        } catch {
          return null; // no key or address yet: nothing to hold
        }
      },
    });
  }
  const search = createSearchModule({
    db,
    indexDir: path.join(n.dataDir, 'search-index'),
    ...searchServiceBinding(service),
    events,
    logger,
    // The reference queries relevance is measured against are a job of the one runner (none
    // while read-only: nothing may be queued).
    queue: readOnly ? undefined : pipeline.pipeline.queue,
    backgroundClient: () => service.client(),
    textShare: () => team?.textShare() ?? null,
    // `@Name` reads where people are from the people module's own read model.
    presence: people.presence,
  });
  // A new key or address: the pipeline retries what the old one was refused, search asks for its
  // reference queries in the new space.
  n.onSettingsChanged(() => {
    pipeline.pipeline.onSettingsChanged();
    search.service.bankChanged();
  });

  // Marks are the editor's own work: each save goes into the catalog file at once, not only
  // into its journal, so a damaged journal cannot take them.
  const marksSaved = () => {
    checkpointAfterSave(db, logger);
    // joined: the edit is sent soon (it is in the catalog's outbox either way)
    team?.marksEdited();
  };
  // A clip still without its proxy plays from a preview stream of the stretch watched, made on demand.
  const playbackFacts = { db, cacheDir: paths.cacheDir, proxyPolicy: () => preferences.get().proxies, volumeProxiesChanged: () => pipeline.pipeline.enqueueProxies(), ffprobe: () => tools.tools().ffprobe };
  const streams = createRangeStreams({ cacheDir: paths.cacheDir, ffmpeg: tools.ffmpegBinary, source: createStreamSource({ ...playbackFacts, clipFile: clipFiles.check }) });
  const handlers: Handlers = {
    ...n.own,
    ...library.handlers,
    ...pipeline.handlers,
    ...collections.handlers,
    ...search.handlers,
    ...createMarksHandlers(db, events, marksSaved),
    ...createSelectsHandlers(db, events, marksSaved),
    ...people.handlers,
    'team.activity': () => team?.activity() ?? { joined: false, online: false, clips: 0, indexedHere: 0, fromOtherSeats: 0, unpublished: 0, notHere: 0, notHereShares: [], held: null },
    ...createExportHandlers(db, n.desktop, people.presence),
    ...createServiceActionsHandlers({
      db,
      events,
      signal: shutdown.signal,
      client: () => service.client(),
      identity: () => service.identity(),
      ffmpeg: tools.ffmpegBinary,
      ffprobe: () => tools.tools().ffprobe,
      profile: pipeline.pipeline.profile,
      cacheDir: paths.cacheDir,
      remote: n.remote,
      share: () => team?.share() ?? null,
      logger,
    }),
    ...createPlaybackHandlers({ ...playbackFacts, clipFile: clipFiles.check, streams, addressRefusal: (url) => remoteUrlRefusal(url, n.remote().policy) }),
    ...createFilesHandlers(clipFiles.check, n.desktop, async (clipId) => {
      const poster = posterPathOf(db, clipId);
      const bytes = poster ? await readUnder(paths.thumbsDir, poster, MAX_DRAG_ICON) : null;
      return bytes instanceof Buffer ? bytes : null;
    }),
  };
  if (!readOnly) {
    pipeline.start();
    // Rows attached just before a crash may not have reached the queue (the row is written first).
    collections.resume();
  } else {
    // Read-only is a full disk's doing: the queue, which starts nothing, says so to the Jobs view
    // and the summary, with the figures its disk watch reads again until the catalog reopens.
    pipeline.pipeline.queue.block('disk', room.describe());
  }
  void search.start();

  return {
    dispatch: dispatcher(n, handlers),
    resolveMedia: createMediaResolver(clipFiles.open, paths.thumbsDir, createProxyFileOpen(db, paths.cacheDir), streams.open),
    openRemoteClip: createRemoteClipStream(db, n.remote),
    async dispose() {
      n.onSettingsChanged(() => {});
      shutdown.abort();
      library.dispose();
      await team?.stop();
      await pipeline.stop();
      await streams.dispose();
      await search.dispose();
    },
  };
}
