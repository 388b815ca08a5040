/** IPC channel names shared by main and preload; the renderer never sees them. */
export const IPC_RPC = 'reelscout:rpc';
export const IPC_EVENT = 'reelscout:event';
export const IPC_CHOOSE_FOLDERS = 'reelscout:choose-folders';
