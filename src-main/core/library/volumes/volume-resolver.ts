import path from 'node:path';

/** A drive, partition or network share as the catalog knows it. */
export interface VolumeInfo {
  /** Identity that survives unplugging and replugging (filesystem UUID, label, volume serial...). */
  key: string;
  /** Where it is mounted now. */
  mountPath: string;
  /** What to call it in the UI. */
  label: string;
}

/** Finds the volume of a path and tells whether a known volume is connected: one per platform. */
export interface VolumeResolver {
  /** The volume holding a real (symlink-resolved) absolute path. */
  volumeFor(realPath: string): VolumeInfo;
  /** Where the volume with this key is mounted now (it may have moved), or null when disconnected. */
  locate(key: string, lastMountPath: string): string | null;
  /** Forget cached mount tables (after an import, or when the OS reports a mount change). */
  refresh(): void;
}

/**
 * What to call a mount with no label of its own: its folder's name, and the system disk (mounted
 * at the root, where that name would be "/") so.
 */
export function mountLabel(mountPoint: string): string {
  return mountPoint === '/' ? 'System disk' : path.basename(mountPoint) || mountPoint;
}
