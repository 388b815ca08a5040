import path from 'node:path';
import { app, BrowserWindow, dialog } from 'electron';
import { createAppCore, type AppCore } from './core/app-core';
import { createLogger, silentLogger, type Logger } from './core/util/logger';
import { APP_VERSION } from './core/util/app-version';
import { createElectronJsonStore, createKeychainCipher } from './ipc/electron-settings';
import { hardenApp } from './ipc/security';
import { registerRpcIpc } from './ipc/rpc-ipc';
import { handleMediaProtocol, registerSchemes } from './ipc/media-protocol';
import { chooseToolFile, registerDialogs } from './ipc/dialogs';
import { handleAppProtocol, rendererDirOf } from './ipc/app-protocol';
import { APP_ORIGIN } from './ipc/app-origin';
import { createDesktopShell } from './ipc/desktop-shell';
import { LOOPBACK_FLAG } from './core/remote/remote-url-policy';

// Thin by design: everything testable lives in core/, this file only wires Electron to it.
let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;

registerSchemes();

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: '#15171c',
    title: 'Reelscout',
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // A middle click must not open a link in a new window (electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  // The built renderer comes from app://reelscout/ (exact-origin trust), never from file://.
  void win.loadURL(process.env.ELECTRON_RENDERER_URL ?? `${APP_ORIGIN}/`);
  return win;
}

// One instance owns the catalog: a second launch focuses the first window and exits.
const primary = app.requestSingleInstanceLock();
if (!primary) app.quit();

app.on('second-instance', () => {
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
});

void app.whenReady().then(async () => {
  if (!primary) return;
  const dataDir = app.getPath('userData');
  const logger = createLogger({ file: path.join(app.getPath('logs'), 'main.log') });
  quitLog = logger;
  hardenApp(logger);
  let opened: AppCore;
  try {
    opened = await createAppCore({
      dataDir,
      transport: 'electron',
      version: APP_VERSION,
      preferencesStore: createElectronJsonStore(),
      secretCipher: createKeychainCipher(logger),
      logger,
      chooseFile: chooseToolFile(() => mainWindow),
      desktop: createDesktopShell(() => mainWindow),
      // Add by URL may read addresses on this computer only when the app was started so.
      remote: { allowLoopback: app.commandLine.hasSwitch(LOOPBACK_FLAG.slice(2)) },
    });
  } catch (e) {
    // Nothing to show the app in: say why in a native window (another instance holds the data
    // folder, the folder cannot be written...) instead of quitting without a word. A damaged
    // catalog or a full disk do not land here: the app opens and offers what to do.
    const message = e instanceof Error ? e.message : String(e);
    logger.error('app.start.failed', { message });
    dialog.showErrorBox('Reelscout could not start', `${message}\n\nData folder: ${dataDir}\nLog: ${path.join(app.getPath('logs'), 'main.log')}`);
    app.quit();
    return;
  }
  core = opened;
  handleAppProtocol(rendererDirOf(__dirname));
  handleMediaProtocol(opened.resolveMedia, opened.openRemoteClip);
  registerRpcIpc(opened, () => mainWindow, logger);
  registerDialogs(() => mainWindow, logger);
  mainWindow = createWindow();
  mainWindow.on('closed', () => (mainWindow = null));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quitting waits for the core to close (the job queue stops, the search index is saved and its
// load settled): Electron does not wait for a promise returned from a will-quit listener.
let closed = false;
let quitLog: Logger = silentLogger;
app.on('will-quit', (event) => {
  if (closed || !core) return;
  event.preventDefault();
  closed = true;
  void core
    .dispose()
    .catch((e: unknown) => quitLog.error('app.close.failed', { message: e instanceof Error ? e.message : String(e) }))
    .finally(() => app.quit());
});
