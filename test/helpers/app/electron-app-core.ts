import path from 'node:path';
import { createAppCore, type AppCore, type AppCoreOptions } from '../../../src-main/core/app-core';
import { createConfJsonStore } from '../../../src-main/core/settings/conf-store';
import { createFileCipher } from '../../../src-main/core/settings/file-cipher';
import { APP_VERSION } from '../../../src-main/core/util/app-version';
import { createLogger, type Logger } from '../../../src-main/core/util/logger';
import { startWebServer, type WebServer } from '../../../src-main/web/web-server';

/**
 * The app core as the Electron shell composes it (its settings store, a file cipher for secrets,
 * a log file), served by the web server over loopback: what the hardening tests attack.
 */
export async function servedAppCore(o: { dataDir: string; keyFile: string; rendererDir: string; desktop?: AppCoreOptions['desktop'] }): Promise<{ core: AppCore; server: WebServer; logger: Logger }> {
  const logger = createLogger({ file: path.join(o.dataDir, 'logs', 'main.log') });
  const core = await createAppCore({
    dataDir: o.dataDir,
    transport: 'electron',
    version: APP_VERSION,
    preferencesStore: createConfJsonStore(o.dataDir),
    secretCipher: createFileCipher(o.keyFile),
    logger,
    ...(o.desktop ? { desktop: o.desktop } : {}),
  });
  const server = await startWebServer({ dispatch: core.dispatch, events: core.events, resolveMedia: core.resolveMedia, rendererDir: o.rendererDir, logger });
  return { core, server, logger };
}
