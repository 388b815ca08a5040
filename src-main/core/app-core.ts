import path from 'node:path';
import { openCatalog, type CatalogDb } from './catalog/open-catalog';
import { ffPath } from './media/ffmpeg-locate';
import { createDispatcher, type Dispatch } from './rpc/dispatcher';
import { EventBus } from './rpc/event-bus';
import type { Handlers } from './rpc/handlers';
import { createPreferences, type JsonStore, type PreferencesService } from './settings/preferences';
import { createSecretStore, type SecretCipher, type SecretStore } from './settings/secret-store';
import { createSettingsHandlers, readApiKey } from './settings/settings-handlers';
import type { Logger } from './util/logger';
import { createMediaResolver } from './media-resolver';
import { createServiceProvider, type ServiceProvider } from './service-provider';
import { createLibraryService } from './library/library-handlers';
import { createAppPipeline } from './pipeline/app-pipeline';
import { createCollectionsModule } from './collections/collections-module';
import { createSearchModule, searchServiceBinding } from './search/search-module';
import type { MediaRef } from '../../src-shared/media-ref';

export interface AppCoreOptions {
  dataDir: string;
  transport: 'electron' | 'web';
  version: string;
  preferencesStore: JsonStore;
  secretCipher: SecretCipher;
  logger: Logger;
}

export interface AppCore {
  dispatch: Dispatch;
  events: EventBus;
  db: CatalogDb;
  preferences: PreferencesService;
  secrets: SecretStore;
  service: ServiceProvider;
  paths: { dataDir: string; catalog: string; cacheDir: string; thumbsDir: string };
  resolveMedia: (ref: MediaRef) => string | null;
  dispose(): Promise<void>;
}

/**
 * Composition root of everything that does not need Electron. The Electron main entry and the
 * web server both build one of these and only differ in how they carry the contract.
 */
export function createAppCore(o: AppCoreOptions): AppCore {
  const paths = {
    dataDir: o.dataDir,
    catalog: path.join(o.dataDir, 'catalog.sqlite'),
    cacheDir: path.join(o.dataDir, 'cache'),
    thumbsDir: path.join(o.dataDir, 'cache', 'thumbs'),
  };
  const events = new EventBus();
  const preferences = createPreferences(o.preferencesStore, o.logger);
  const secrets = createSecretStore(path.join(o.dataDir, 'secrets.json'), o.secretCipher);
  const storedKey = readApiKey(secrets);
  if (storedKey) o.logger.addSecret(storedKey);
  const db = openCatalog(paths.catalog);
  const service = createServiceProvider(preferences, secrets);

  // Paths chosen in Settings, read at each use so a change applies without a restart.
  const tools = () => {
    const p = preferences.get();
    return { ffmpeg: p.ffmpegPath || undefined, ffprobe: p.ffprobePath || undefined };
  };
  const ffmpegBinary = () => ffPath('ffmpeg', { ffmpeg: tools().ffmpeg });
  const ffmpegPath = () => {
    try {
      return ffmpegBinary();
    } catch {
      return null;
    }
  };
  const shutdown = new AbortController();

  const pipeline = createAppPipeline({ db, events, service, cacheDir: paths.cacheDir, tools, logger: o.logger });
  const library = createLibraryService({
    db,
    events,
    cacheDir: paths.cacheDir,
    logger: o.logger,
    tools,
    signal: shutdown.signal,
    // The one runner: posters, shots, thumbnails and indexing are all stages of the pipeline.
    indexClips: (ids, opts) => pipeline.pipeline.enqueueClips(ids, opts),
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
  });
  const search = createSearchModule({
    db,
    indexDir: path.join(o.dataDir, 'search-index'),
    ...searchServiceBinding(service),
    events,
    logger: o.logger,
  });

  const handlers: Handlers = {
    ...createSettingsHandlers({
      preferences,
      secrets,
      events,
      logger: o.logger,
      transport: o.transport,
      dataDir: o.dataDir,
      version: o.version,
      ffmpegPath,
      probeService: async () => {
        const client = service.client();
        client.clearAuthRejection();
        const started = performance.now();
        const collections = await client.listCollections();
        return { latencyMs: performance.now() - started, collections: collections.length };
      },
    }),
    ...library.handlers,
    ...pipeline.handlers,
    ...collections.handlers,
    ...search.handlers,
  };
  pipeline.start();
  // Rows attached just before a crash may not have reached the queue (the row is written first).
  collections.resume();
  void search.start();

  return {
    dispatch: createDispatcher(handlers, o.logger),
    events,
    db,
    preferences,
    secrets,
    service,
    paths,
    resolveMedia: createMediaResolver(db, paths.thumbsDir),
    async dispose() {
      shutdown.abort();
      library.dispose();
      await pipeline.stop();
      await search.dispose();
      db.close();
    },
  };
}
