import path from 'node:path';
import type { CatalogDb } from './catalog/open-catalog';
import { BACKUP_DIR } from './catalog/catalog-backups';
import { clipCount } from './library/clip-store';
import { rangeCount } from './marks/range-store';
import { CatalogSession } from './catalog/catalog-session';
import { ffPath } from './media/ffmpeg-locate';
import { createDispatcher, type Dispatch } from './rpc/dispatcher';
import { EventBus } from './rpc/event-bus';
import type { Handlers } from './rpc/handlers';
import { createPreferences, type PreferencesService } from './settings/preferences';
import { createSecretStore } from './settings/secret-store';
import type { JsonStore, SecretCipher, SecretStore } from './util/persisted-stores';
import { createSettingsHandlers } from './settings/settings-handlers';
import { bindLegacyKey, readStoredKey } from './settings/api-key';
import { verifyTool } from './media/tool-check';
import { locateTool, type FfTool } from './media/ffmpeg-locate';
import { createServiceClient } from './service/client';
import type { ToolStatus } from '../../src-shared/contract/settings';
import { AppError, toAppError } from '../../src-shared/errors';
import { METHODS, type MethodName } from '../../src-shared/contract';
import type { Logger } from './util/logger';
import { createMediaResolver, type MediaResolver } from './media-resolver';
import { createPlaybackHandlers, createProxyFileOpen } from './proxies/proxy-handlers';
import { createClipFiles } from './library/clip-file';
import { createServiceProvider, type ServiceProvider } from './service-provider';
import { createLibraryService } from './library/library-handlers';
import { posterPathOf } from './library/thumbnail-store';
import { createMarksHandlers } from './marks/marks-handlers';
import { createSelectsHandlers } from './library/selects';
import { createExportHandlers } from './export/export-handlers';
import { createServiceActionsHandlers } from './service-actions/service-actions-handlers';
import { createFilesHandlers, type DesktopShell } from './files/files-handlers';
import { readUnder } from './util/open-verified';
import { createAppPipeline } from './pipeline/app-pipeline';
import { createCollectionsModule } from './collections/collections-module';
import { createSearchModule, searchServiceBinding } from './search/search-module';
import { acquireDataDirLock, type DataDirLock } from './util/data-dir-lock';
import { createDiskGuard } from './util/disk-space';
import { createCatalogHandlers } from './catalog/catalog-handlers';
import { checkpointAfterSave } from './catalog/checkpoint';
import type { RemoteTimeouts } from './remote/remote-fetch';
import type { RemoteAccess, RemoteDeadlines } from './remote/remote-input';
import { createRemoteClipStream, type RemoteClipStream } from './remote/remote-clip-stream';
import { createConfJsonStore } from './settings/conf-store';
import { createTeamHandlers } from './team/team-handlers';
import { createTeamSettings } from './team/team-settings';
import { createTeamRuntime, type TeamRuntime } from './team-runtime';

export interface AppCoreOptions {
  dataDir: string;
  transport: 'electron' | 'web';
  version: string;
  preferencesStore: JsonStore;
  secretCipher: SecretCipher;
  logger: Logger;
  /** Web mode's --ffmpeg/--ffprobe: they win over Settings and are checked like a chosen program. */
  toolPaths?: Partial<Record<FfTool, string>>;
  /** Electron: main's native file dialog for choosing ffmpeg/ffprobe. */
  chooseFile?: (tool: FfTool) => Promise<string | null>;
  /** Electron: reveal, open and drag real files out (absent in web mode, which says why). */
  desktop?: DesktopShell;
  /** Free space kept in the data folder before anything writes (default DEFAULT_MIN_FREE_BYTES; tests on a small disk lower it). */
  minFreeBytes?: number;
  /**
   * Reads of clips added by URL: `allowLoopback` only when the person starting the app said so
   * (`--allow-loopback-urls`; no RPC can set it); tests shorten the timeouts.
   */
  remote?: { allowLoopback?: boolean; timeouts?: Partial<RemoteTimeouts>; deadlines?: Partial<RemoteDeadlines> };
  /** A team library's lease of a claimed clip (default 30 s): web mode's --team-lease-seconds, for tests of a seat dying. */
  teamLeaseMs?: number;
  /** A seat held by its start's check checks again this often (default 60 s; tests). */
  teamRecheckMs?: number;
}

export interface AppCore {
  dispatch: Dispatch;
  events: EventBus;
  /** The open catalog (it changes when a backup is restored); throws while the catalog is damaged. */
  readonly db: CatalogDb;
  preferences: PreferencesService;
  secrets: SecretStore;
  service: ServiceProvider;
  paths: { dataDir: string; catalog: string; cacheDir: string; thumbsDir: string; backupsDir: string };
  resolveMedia: MediaResolver;
  /** Playback of a clip added by URL, streamed through main (null: not such a clip). */
  openRemoteClip: RemoteClipStream;
  dispose(): Promise<void>;
}

/** A poster shown under the pointer in a drag is a small JPEG; anything bigger in its place is not read. */
const MAX_DRAG_ICON = 4 * 1024 * 1024;

/**
 * Composition root of everything that does not need Electron. The Electron main entry and the
 * web server both build one of these and only differ in how they carry the contract.
 */
export async function createAppCore(o: AppCoreOptions): Promise<AppCore> {
  // Before anything is opened or recovered: a second instance must not touch the first one's jobs.
  const lock = acquireDataDirLock(o.dataDir, o.transport);
  try {
    return await composeAppCore(o, lock);
  } catch (e) {
    lock.release();
    throw e;
  }
}

/** What the app builds on one open catalog (catalog-session.ts rebuilds it when the catalog changes). */
interface CatalogApp {
  dispatch: Dispatch;
  resolveMedia: MediaResolver;
  openRemoteClip: RemoteClipStream;
  dispose(): Promise<void>;
}

async function composeAppCore(o: AppCoreOptions, lock: DataDirLock): Promise<AppCore> {
  const paths = {
    dataDir: o.dataDir,
    catalog: path.join(o.dataDir, 'catalog.sqlite'),
    cacheDir: path.join(o.dataDir, 'cache'),
    thumbsDir: path.join(o.dataDir, 'cache', 'thumbs'),
    backupsDir: path.join(o.dataDir, BACKUP_DIR),
  };
  const events = new EventBus();
  const preferences = createPreferences(o.preferencesStore, o.logger);
  const secrets = createSecretStore(path.join(o.dataDir, 'secrets.json'), o.secretCipher);
  const storedKey = readStoredKey(secrets);
  if (storedKey) o.logger.addSecret(storedKey.key);
  {
    const p = preferences.get();
    bindLegacyKey(secrets, p.baseUrls[p.region]);
  }
  const service = createServiceProvider(preferences, secrets);
  const disk = createDiskGuard(o.dataDir, o.minFreeBytes);
  const remote = (): RemoteAccess => ({ policy: { allowLoopback: o.remote?.allowLoopback === true }, timeouts: o.remote?.timeouts, deadlines: o.remote?.deadlines });

  // Paths chosen in main (Settings' file dialog, web mode's flags), read at each use so a change
  // applies without a restart, and checked to be ffmpeg/ffprobe before anything runs them.
  const chosenTool = (tool: FfTool): { path: string; source: 'flag' | 'setting' } | null => {
    const flag = o.toolPaths?.[tool];
    if (flag) return { path: flag, source: 'flag' };
    const p = preferences.get();
    const setting = tool === 'ffmpeg' ? p.ffmpegPath : p.ffprobePath;
    return setting ? { path: setting, source: 'setting' } : null;
  };
  const tools = () => {
    const out: { ffmpeg?: string; ffprobe?: string } = {};
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const chosen = chosenTool(tool);
      if (!chosen) continue;
      verifyTool(tool, chosen.path);
      out[tool] = chosen.path;
    }
    return out;
  };
  const toolStatus = (): ToolStatus[] =>
    (['ffmpeg', 'ffprobe'] as const).map((tool) => {
      const chosen = chosenTool(tool);
      try {
        const located = locateTool(tool, { explicit: { [tool]: chosen?.path } });
        return { tool, path: located.path, source: chosen?.source ?? located.source, origin: located.origin ?? null, version: verifyTool(tool, located.path), error: null };
      } catch (e) {
        return { tool, path: chosen?.path ?? null, source: chosen?.source ?? null, origin: null, version: null, error: toAppError(e).toJSON() };
      }
    });
  const ffmpegBinary = () => ffPath('ffmpeg', { ffmpeg: tools().ffmpeg });
  const ffmpegPath = () => {
    try {
      return ffmpegBinary();
    } catch {
      return null;
    }
  };

  // Settings live outside the catalog: they answer whatever state the catalog is in. What a change
  // of key or address means to the parts on the catalog is theirs to say (set while they stand).
  let settingsChanged = () => {};
  const settingsHandlers = createSettingsHandlers({
    preferences,
    secrets,
    events,
    logger: o.logger,
    transport: o.transport,
    dataDir: o.dataDir,
    version: o.version,
    ffmpegPath,
    probeService: async (target) => {
      // A client of its own for what the form holds; it shares the limiter of that address and key.
      const p = preferences.get();
      const client = createServiceClient({ region: p.region, baseUrls: { [p.region]: target.baseUrl }, apiKey: target.apiKey, authHeader: target.authHeader, qps: p.qps, concurrency: p.concurrency });
      client.clearAuthRejection();
      const started = performance.now();
      const collections = await client.listCollections();
      return { latencyMs: performance.now() - started, collections: collections.length };
    },
    toolStatus,
    chooseFile: o.chooseFile,
    verifyTool,
    onChanged: () => settingsChanged(),
  });

  // The team library's opt-in lives beside the settings, outside the catalog: joining or leaving
  // never touches this machine's catalog.
  const teamSettings = createTeamSettings({ store: createConfJsonStore(o.dataDir, 'team'), secrets, logger: o.logger });
  const teamHandlers = createTeamHandlers(teamSettings);

  const session: CatalogSession<CatalogApp> = new CatalogSession<CatalogApp>({
    file: paths.catalog,
    backupsDir: paths.backupsDir,
    disk,
    events,
    logger: o.logger,
    counters: { clips: clipCount, ranges: rangeCount },
    compose: (db, readOnly) => composeCatalogApp(db, readOnly),
    recovery: () => recoveryApp(),
  });
  const catalogHandlers = createCatalogHandlers(session);
  const dispatcher = (handlers: Handlers) => createDispatcher(handlers, o.logger, (e) => session.explain(e));

  /** A damaged catalog: settings and the catalog's own methods answer; everything else says why not. */
  function recoveryApp(): CatalogApp {
    const own = { ...settingsHandlers, ...teamHandlers, ...catalogHandlers } as Partial<Handlers>;
    const refuse = () => {
      throw new AppError('damaged', session.health().message ?? 'the catalog is damaged');
    };
    const handlers = Object.fromEntries((Object.keys(METHODS) as MethodName[]).map((m) => [m, own[m] ?? refuse])) as unknown as Handlers;
    return { dispatch: dispatcher(handlers), resolveMedia: async () => null, openRemoteClip: async () => null, dispose: async () => {} };
  }

  /** The whole app on an open catalog; `readOnly` (a full disk) starts nothing that writes. */
  function composeCatalogApp(db: CatalogDb, readOnly: boolean): CatalogApp {
    const shutdown = new AbortController();
    const clipFiles = createClipFiles(db);
    // A seat of a team library divides the indexing with the other seats (none while read-only).
    let team: TeamRuntime | null = null;
    const pipeline = createAppPipeline({
      db,
      events,
      service,
      cacheDir: paths.cacheDir,
      tools,
      logger: o.logger,
      options: {
        disk: { room: () => disk.room(), describe: () => `${disk.describe()} Work carries on by itself once there is room; nothing is lost.` },
        share: () => team?.share() ?? null,
        proxySettings: () => ({ policy: preferences.get().proxies, budgetBytes: preferences.get().proxyBudgetGb * 1e9 }),
      },
    });
    const library = createLibraryService({
      db,
      events,
      cacheDir: paths.cacheDir,
      logger: o.logger,
      signal: shutdown.signal,
      // The one runner: posters, shots, thumbnails and indexing are all stages of the pipeline.
      indexClips: (ids, opts) => pipeline.pipeline.enqueueClips(ids, opts),
      indexStates: (ids) => pipeline.pipeline.indexStates(ids),
      beforeImport: () => disk.require(),
      // The first clips catalogued are what the first backup is for (catalog-backups.ts).
      afterImport: () => session.backupIfDue(),
      ...(readOnly ? { pollOnStart: false, volumePollMs: 0 } : {}),
    });
    const collections = createCollectionsModule({
      db,
      events,
      logger: o.logger,
      cacheDir: paths.cacheDir,
      region: () => preferences.get().region,
      client: () => service.client(),
      ffmpeg: ffmpegBinary,
      queue: pipeline.pipeline.queue,
      share: () => team?.collectionShare() ?? null,
    });
    if (!readOnly) {
      team = createTeamRuntime({
        settings: teamSettings,
        db,
        events,
        cacheDir: paths.cacheDir,
        pipeline: pipeline.pipeline,
        collections,
        identity: () => service.identity(),
        logger: o.logger,
        leaseMs: o.teamLeaseMs,
        recheckMs: o.teamRecheckMs,
        importFiles: (files) => library.importPaths(files, 'team'),
      });
    }
    const search = createSearchModule({
      db,
      indexDir: path.join(o.dataDir, 'search-index'),
      ...searchServiceBinding(service),
      events,
      logger: o.logger,
      // The reference queries relevance is measured against are a job of the one runner (none
      // while read-only: nothing may be queued).
      queue: readOnly ? undefined : pipeline.pipeline.queue,
      backgroundClient: () => service.client(),
      textShare: () => team?.textShare() ?? null,
    });
    // A new key or address: the pipeline retries what the old one was refused, search asks for its
    // reference queries in the new space.
    settingsChanged = () => {
      pipeline.pipeline.onSettingsChanged();
      search.service.bankChanged();
    };

    // Marks are the editor's own work: each save goes into the catalog file at once, not only
    // into its journal, so a damaged journal cannot take them.
    const marksSaved = () => {
      checkpointAfterSave(db, o.logger);
      // joined: the edit is sent soon (it is in the catalog's outbox either way)
      team?.marksEdited();
    };
    const handlers: Handlers = {
      ...settingsHandlers,
      ...teamHandlers,
      ...catalogHandlers,
      ...library.handlers,
      ...pipeline.handlers,
      ...collections.handlers,
      ...search.handlers,
      ...createMarksHandlers(db, events, marksSaved),
      ...createSelectsHandlers(db, events, marksSaved),
      'team.activity': () => team?.activity() ?? { joined: false, online: false, clips: 0, indexedHere: 0, fromOtherSeats: 0, unpublished: 0, notHere: 0, notHereShares: [], held: null },
      ...createExportHandlers(db, o.desktop),
      ...createServiceActionsHandlers({
        db,
        events,
        signal: shutdown.signal,
        client: () => service.client(),
        identity: () => service.identity(),
        ffmpeg: ffmpegBinary,
        ffprobe: () => tools().ffprobe,
        profile: pipeline.pipeline.profile,
        cacheDir: paths.cacheDir,
        remote,
        logger: o.logger,
      }),
      ...createPlaybackHandlers({ db, clipFile: clipFiles.check, cacheDir: paths.cacheDir, proxyPolicy: () => preferences.get().proxies }),
      ...createFilesHandlers(clipFiles.check, o.desktop, async (clipId) => {
        const poster = posterPathOf(db, clipId);
        const bytes = poster ? await readUnder(paths.thumbsDir, poster, MAX_DRAG_ICON) : null;
        return bytes instanceof Buffer ? bytes : null;
      }),
    };
    if (!readOnly) {
      pipeline.start();
      // Rows attached just before a crash may not have reached the queue (the row is written first).
      collections.resume();
    }
    void search.start();

    return {
      dispatch: dispatcher(handlers),
      resolveMedia: createMediaResolver(clipFiles.open, paths.thumbsDir, createProxyFileOpen(db, paths.cacheDir)),
      openRemoteClip: createRemoteClipStream(db, remote),
      async dispose() {
        settingsChanged = () => {};
        shutdown.abort();
        library.dispose();
        await team?.stop();
        await pipeline.stop();
        await search.dispose();
      },
    };
  }

  await session.open();
  return {
    dispatch: async (method, args, ctx) => (await session.current()).dispatch(method, args, ctx),
    events,
    get db() {
      return session.catalog();
    },
    preferences,
    secrets,
    service,
    paths,
    resolveMedia: async (ref) => (await session.current()).resolveMedia(ref),
    openRemoteClip: async (clipId, range, signal) => (await session.current()).openRemoteClip(clipId, range, signal),
    async dispose() {
      await session.close();
      lock.release();
    },
  };
}
