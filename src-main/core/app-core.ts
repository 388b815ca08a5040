import fs from 'node:fs';
import path from 'node:path';
import type { CatalogDb } from './catalog/open-catalog';
import { BACKUP_DIR } from './catalog/catalog-backups';
import { clipCount } from './library/clip-store';
import { rangeCount } from './marks/range-store';
import { CatalogSession } from './catalog/catalog-session';
import { createCatalogHandlers } from './catalog/catalog-handlers';
import type { Dispatch } from './rpc/dispatcher';
import { EventBus } from './rpc/event-bus';
import type { PreferencesService } from './settings/preferences';
import { createSettingsModule } from './settings/settings-module';
import type { JsonStore, SecretCipher, SecretStore } from './util/persisted-stores';
import type { FfTool } from './media/ffmpeg-locate';
import type { Logger } from './util/logger';
import type { MediaResolver } from './media-resolver';
import { createServiceProvider, type ServiceProvider } from './service-provider';
import type { DesktopShell } from './files/files-handlers';
import { acquireDataDirLock, type DataDirLock } from './util/data-dir-lock';
import { createDiskGuard } from './util/disk-space';
import type { RemoteTimeouts } from './remote/remote-fetch';
import type { RemoteAccess, RemoteDeadlines } from './remote/remote-input';
import type { RemoteClipStream } from './remote/remote-clip-stream';
import { composeCatalogApp, recoveryApp, type CatalogApp, type CatalogAppNeeds } from './catalog-app';

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
  remote?: { allowLoopback?: boolean; timeouts?: Partial<RemoteTimeouts>; deadlines?: Partial<RemoteDeadlines>; maxSpoolBytes?: number };
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

async function composeAppCore(o: AppCoreOptions, lock: DataDirLock): Promise<AppCore> {
  const paths = {
    dataDir: o.dataDir,
    catalog: path.join(o.dataDir, 'catalog.sqlite'),
    cacheDir: path.join(o.dataDir, 'cache'),
    thumbsDir: path.join(o.dataDir, 'cache', 'thumbs'),
    backupsDir: path.join(o.dataDir, BACKUP_DIR),
  };
  const events = new EventBus();
  const settings = createSettingsModule({ ...o, events });
  const { preferences, secrets, tools } = settings;
  const service = createServiceProvider(preferences, secrets);
  const disk = createDiskGuard(o.dataDir, o.minFreeBytes);
  // Copies of files from servers without range requests (remote-spool.ts); one left by a crash is of no use.
  const spoolDir = path.join(paths.cacheDir, 'remote-spool');
  fs.rmSync(spoolDir, { recursive: true, force: true });
  const remote = (): RemoteAccess => ({
    policy: { allowLoopback: o.remote?.allowLoopback === true },
    spool: { dir: spoolDir, maxBytes: o.remote?.maxSpoolBytes },
    timeouts: o.remote?.timeouts,
    deadlines: o.remote?.deadlines,
  });

  const needs: CatalogAppNeeds = {
    dataDir: o.dataDir,
    paths,
    events,
    logger: o.logger,
    preferences,
    service,
    tools,
    disk,
    team: settings.team,
    remote,
    desktop: o.desktop,
    teamLeaseMs: o.teamLeaseMs,
    teamRecheckMs: o.teamRecheckMs,
    own: { ...settings.handlers, ...createCatalogHandlers({ health: () => session.health(), restore: (id) => session.restore(id), startNew: () => session.startNew() }) },
    explain: (e) => session.explain(e),
    backupIfDue: () => session.backupIfDue(),
    onSettingsChanged: settings.onChanged,
  };
  const session: CatalogSession<CatalogApp> = new CatalogSession<CatalogApp>({
    file: paths.catalog,
    backupsDir: paths.backupsDir,
    disk,
    events,
    logger: o.logger,
    counters: { clips: clipCount, ranges: rangeCount },
    compose: (db, readOnly) => composeCatalogApp(needs, db, readOnly),
    recovery: () => recoveryApp(needs, () => session.unavailable()),
  });

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
