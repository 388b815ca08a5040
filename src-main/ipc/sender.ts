import type { IpcMainInvokeEvent } from 'electron';
import type { Logger } from '../core/util/logger';
import { isAppUrl } from './app-origin';

/** Every IPC handler asks this first: the call must come from the app's own renderer frame. */
export function fromApp(event: IpcMainInvokeEvent, logger: Logger, channel: string): boolean {
  const frameUrl = event.senderFrame?.url ?? '';
  if (isAppUrl(frameUrl, process.env.ELECTRON_RENDERER_URL)) return true;
  logger.warn('ipc.refused', { channel, frame: frameUrl.slice(0, 200) });
  return false;
}
