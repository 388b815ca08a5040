import path from 'node:path';
import { createAppCore, type AppCore, type AppCoreOptions } from '../core/app-core';
import { createConfJsonStore } from '../core/settings/conf-store';
import { createFileCipher, moveLegacyKey, masterKeyFile } from '../core/settings/file-cipher';
import { createLogger, type Logger } from '../core/util/logger';
import { startWebServer, type WebServer } from './web-server';
import { APP_VERSION } from '../core/util/app-version';

export interface WebAppOptions {
  dataDir: string;
  rendererDir: string;
  port?: number;
  token?: string;
  logToConsole?: boolean;
  /** The master key file (outside dataDir; default masterKeyFile(dataDir)). */
  keyFile?: string;
  /** --ffmpeg / --ffprobe: checked to be those programs before use. */
  toolPaths?: { ffmpeg?: string; ffprobe?: string };
  /** --allow-loopback-urls, and the timeouts tests shorten: reads of clips added by URL. */
  remote?: AppCoreOptions['remote'];
  /** Free space kept in the data folder (tests on a small disk lower it). */
  minFreeBytes?: number;
  /** --team-lease-seconds, in ms. */
  teamLeaseMs?: number;
  /** A seat held by its start's check checks again this often (tests). */
  teamRecheckMs?: number;
}

export interface WebApp {
  core: AppCore;
  server: WebServer;
  logger: Logger;
  logFile: string;
  close(): Promise<void>;
}

/** The headless app: the same core as Electron's main process, carried over localhost. */
export async function startWebApp(o: WebAppOptions): Promise<WebApp> {
  const logFile = path.join(o.dataDir, 'logs', 'main.log');
  const logger = createLogger({ file: logFile, console: o.logToConsole });
  const keyFile = o.keyFile ?? masterKeyFile(o.dataDir);
  moveLegacyKey(o.dataDir, keyFile);
  const core = await createAppCore({
    dataDir: o.dataDir,
    transport: 'web',
    version: APP_VERSION,
    preferencesStore: createConfJsonStore(o.dataDir),
    secretCipher: createFileCipher(keyFile),
    logger,
    toolPaths: o.toolPaths,
    remote: o.remote,
    minFreeBytes: o.minFreeBytes,
    teamLeaseMs: o.teamLeaseMs,
    teamRecheckMs: o.teamRecheckMs,
  });
  let server: WebServer;
  try {
    server = await startWebServer({
      dispatch: core.dispatch,
      events: core.events,
      resolveMedia: core.resolveMedia,
      openRemoteClip: core.openRemoteClip,
      rendererDir: o.rendererDir,
      logger,
      port: o.port,
      token: o.token,
    });
  } catch (e) {
    // A port in use: give the data folder (and its lock) back before failing.
    await core.dispose();
    throw e;
  }
  logger.info('web.started', { url: server.url });
  return {
    core,
    server,
    logger,
    logFile,
    async close() {
      await server.close();
      await core.dispose();
    },
  };
}
