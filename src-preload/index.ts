import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { IPC_CHOOSE_FOLDERS, IPC_EVENT, IPC_RPC } from './channels';

/**
 * The only bridge between the sandboxed renderer and main: the contract's invoke and events,
 * plus the two things only Electron can do (a file's path from a drop, the native picker).
 * Arguments are validated in main, not trusted here.
 */
const api = {
  invoke: (method: string, args: unknown): Promise<unknown> => ipcRenderer.invoke(IPC_RPC, method, args),
  onEvent: (listener: (msg: { event: string; payload: unknown }) => void): (() => void) => {
    const wrapped = (_e: unknown, msg: { event: string; payload: unknown }) => listener(msg);
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => ipcRenderer.removeListener(IPC_EVENT, wrapped);
  },
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
  chooseFolders: (): Promise<string[]> => ipcRenderer.invoke(IPC_CHOOSE_FOLDERS),
};

export type PreloadApi = typeof api;

contextBridge.exposeInMainWorld('api', api);
