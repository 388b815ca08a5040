import path from 'node:path';

/**
 * Extensions worth handing to ffprobe. Anything else is ignored without a probe; a file with one of
 * these that ffprobe cannot read still gets a clip row with the reason.
 */
export const VIDEO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp4', 'm4v', 'mov', 'qt', 'mkv', 'webm', 'avi', 'mxf', 'mts', 'm2ts', 'ts', 'm2t', 'mpg', 'mpeg', 'm2v',
  'vob', 'wmv', 'asf', 'flv', '3gp', '3g2', 'ogv', 'dv', 'dif', 'y4m', 'hevc', 'h264', 'insv', 'lrv',
]);

export function isVideoPath(p: string): boolean {
  return VIDEO_EXTENSIONS.has(path.extname(p).slice(1).toLowerCase());
}

/** Folders and files that operating systems and cameras create for themselves. */
const SYSTEM_NAMES = new Set([
  '$recycle.bin', 'system volume information', 'recycler', 'thumbs.db', 'desktop.ini', 'lost+found',
  '.spotlight-v100', '.trashes', '.fseventsd', '.temporaryitems', '.ds_store', '@eadir', '#recycle',
]);

/** 'hidden' for dot-files (including macOS AppleDouble "._x"), 'system' for OS folders, else null. */
export function hiddenKind(name: string): 'hidden' | 'system' | null {
  if (SYSTEM_NAMES.has(name.toLowerCase())) return 'system';
  if (name.startsWith('.')) return 'hidden';
  return null;
}
