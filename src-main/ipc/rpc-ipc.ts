import { ipcMain, type BrowserWindow } from 'electron';
import type { AppCore } from '../core/app-core';
import type { Logger } from '../core/util/logger';
import { fromApp } from './sender';
import { IPC_RPC, IPC_EVENT } from '../../src-preload/channels';

/** Carries the contract over IPC; the dispatcher validates every argument before core sees it. */
export function registerRpcIpc(core: AppCore, getWindow: () => BrowserWindow | null, logger: Logger): () => void {
  ipcMain.handle(IPC_RPC, async (event, method: unknown, args: unknown) => {
    if (!fromApp(event, logger, IPC_RPC)) return { ok: false, error: { kind: 'auth', message: 'refused: not the app renderer' } };
    return core.dispatch(typeof method === 'string' ? method : '', args, { transport: 'electron' });
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    const win = getWindow();
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, { event: name, payload });
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_RPC);
  };
}
