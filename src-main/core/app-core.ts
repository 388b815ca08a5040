import path from 'node:path';
import { AppError } from '../../src-shared/errors';
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

  const ffmpegPath = () => {
    try {
      return ffPath('ffmpeg', { ffmpeg: preferences.get().ffmpegPath || undefined });
    } catch {
      return null;
    }
  };

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
        throw new AppError('offline', 'service client not wired yet');
      },
    }),
  };

  return {
    dispatch: createDispatcher(handlers, o.logger),
    events,
    db,
    preferences,
    secrets,
    paths,
    resolveMedia: createMediaResolver(db, paths.thumbsDir),
    async dispose() {
      db.close();
    },
  };
}
