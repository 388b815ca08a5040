import { dialog, ipcMain, type BrowserWindow } from 'electron';
import { IPC_CHOOSE_FOLDERS } from '../../src-preload/channels';

/** The native picker exists only in Electron; the renderer then calls library.import with the paths. */
export function registerDialogs(getWindow: () => BrowserWindow | null): void {
  ipcMain.handle(IPC_CHOOSE_FOLDERS, async () => {
    const win = getWindow();
    const opts = { properties: ['openDirectory', 'openFile', 'multiSelections'] as ('openDirectory' | 'openFile' | 'multiSelections')[] };
    const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
    return r.canceled ? [] : r.filePaths;
  });
}
