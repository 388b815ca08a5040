import fs from 'node:fs';
import path from 'node:path';
import { app, dialog, nativeImage, shell, type BrowserWindow } from 'electron';
import { AppError } from '../../src-shared/errors';
import type { DesktopShell } from '../core/files/files-handlers';
import { freeFileName } from '../core/files/free-file-name';

/** A 1x1 transparent PNG: startDrag needs an icon on macOS when the clip has no poster yet. */
const BLANK_ICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Electron's side of the hand-off: the OS file manager, the default player, real file drags, and saving exports. */
export function createDesktopShell(window: () => BrowserWindow | null): DesktopShell {
  return {
    reveal: (file) => shell.showItemInFolder(file),
    open: async (file) => {
      const err = await shell.openPath(file);
      if (err) throw new AppError('io', err);
    },
    startDrag: (files, icon) => {
      const w = window();
      if (!w || files.length === 0) return;
      const img = icon ? nativeImage.createFromBuffer(icon).resize({ width: 96 }) : nativeImage.createFromDataURL(BLANK_ICON);
      w.webContents.startDrag({ file: files[0]!, files, icon: img.isEmpty() ? nativeImage.createFromDataURL(BLANK_ICON) : img });
    },
    // One file: the save dialog (it asks before replacing a file). Several (an EDL per frame
    // rate): a folder, each file under its own name, never over a file already there.
    saveFiles: async (files) => {
      const w = window();
      if (files.length === 1) {
        const f = files[0]!;
        const opts = { title: 'Save export', defaultPath: path.join(app.getPath('documents'), f.fileName), properties: ['showOverwriteConfirmation', 'createDirectory'] as ('showOverwriteConfirmation' | 'createDirectory')[] };
        const r = w ? await dialog.showSaveDialog(w, opts) : await dialog.showSaveDialog(opts);
        if (r.canceled || !r.filePath) return [];
        await fs.promises.writeFile(r.filePath, f.text, 'utf8');
        return [r.filePath];
      }
      const opts = { title: `Choose a folder for the ${files.length} export files`, defaultPath: app.getPath('documents'), properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] };
      const r = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      const dir = r.canceled ? undefined : r.filePaths[0];
      if (!dir) return [];
      const written: string[] = [];
      for (const f of files) {
        const target = freeFileName(dir, f.fileName, fs.existsSync);
        await fs.promises.writeFile(target, f.text, { encoding: 'utf8', flag: 'wx' });
        written.push(target);
      }
      return written;
    },
  };
}
