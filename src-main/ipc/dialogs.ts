import { dialog, ipcMain, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { FfTool } from '../core/media/ffmpeg-locate';
import type { Logger } from '../core/util/logger';
import { IPC_CHOOSE_FOLDERS } from '../../src-preload/channels';
import { fromApp } from './sender';

async function open(getWindow: () => BrowserWindow | null, opts: OpenDialogOptions): Promise<string[]> {
  const win = getWindow();
  const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
  return r.canceled ? [] : r.filePaths;
}

/** The native picker exists only in Electron; the renderer then calls library.import with the paths. */
export function registerDialogs(getWindow: () => BrowserWindow | null, logger: Logger): void {
  ipcMain.handle(IPC_CHOOSE_FOLDERS, async (event) => {
    if (!fromApp(event, logger, IPC_CHOOSE_FOLDERS)) return [];
    return open(getWindow, { properties: ['openDirectory', 'openFile', 'multiSelections'] });
  });
}

/** Main's own dialog for ffmpeg/ffprobe (settings.chooseTool): the path never comes from the renderer. */
export function chooseToolFile(getWindow: () => BrowserWindow | null): (tool: FfTool) => Promise<string | null> {
  return async (tool) => (await open(getWindow, { title: `Choose the ${tool} program`, properties: ['openFile', 'dontAddToRecent'] }))[0] ?? null;
}
