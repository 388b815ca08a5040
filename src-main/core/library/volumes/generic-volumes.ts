import fs from 'node:fs';
import path from 'node:path';
import { mountLabel, type VolumeInfo, type VolumeResolver } from './volume-resolver';

/** Walks up until the device number changes: the last folder on the same device is the mount point. */
export function mountPointByDevice(realPath: string): string {
  let cur = realPath;
  let dev: number;
  try {
    dev = fs.statSync(cur).dev;
  } catch {
    return path.parse(realPath).root;
  }
  for (;;) {
    const parent = path.dirname(cur);
    if (parent === cur) return cur;
    try {
      if (fs.statSync(parent).dev !== dev) return cur;
    } catch {
      return cur;
    }
    cur = parent;
  }
}

/**
 * macOS and other Unixes without /proc: a removable volume is mounted at /Volumes/<Name> under its
 * name, so the mount point is its identity; it is online when that folder exists and is still a
 * mount point (a different device from its parent).
 */
export class DeviceWalkVolumeResolver implements VolumeResolver {
  refresh(): void {}

  volumeFor(realPath: string): VolumeInfo {
    const mp = mountPointByDevice(realPath);
    return { key: `mount:${mp}`, mountPath: mp, label: mountLabel(mp) };
  }

  locate(key: string): string | null {
    if (!key.startsWith('mount:')) return null;
    const mp = key.slice('mount:'.length);
    try {
      const st = fs.statSync(mp);
      if (path.dirname(mp) === mp) return mp;
      return fs.statSync(path.dirname(mp)).dev !== st.dev ? mp : null;
    } catch {
      return null;
    }
  }
}

/**
 * Windows: Node reports the volume serial number as st_dev, so a drive keeps its identity when it
 * comes back under another letter. UNC shares are identified by server and share.
 */
export class WindowsVolumeResolver implements VolumeResolver {
  refresh(): void {}

  volumeFor(realPath: string): VolumeInfo {
    const root = path.win32.parse(realPath).root;
    if (root.startsWith('\\\\')) return { key: `unc:${root.toLowerCase()}`, mountPath: root, label: root };
    let serial: number | null = null;
    try {
      serial = fs.statSync(root).dev;
    } catch {
      /* fall back to the letter */
    }
    return { key: serial ? `win:${serial.toString(16)}` : `drive:${root.toUpperCase()}`, mountPath: root, label: root.replace(/\\$/, '') };
  }

  locate(key: string, lastMountPath: string): string | null {
    if (key.startsWith('unc:') || key.startsWith('drive:')) return fs.existsSync(lastMountPath) ? lastMountPath : null;
    const matches = (root: string) => {
      try {
        return `win:${fs.statSync(root).dev.toString(16)}` === key;
      } catch {
        return false;
      }
    };
    if (matches(lastMountPath)) return lastMountPath;
    for (let c = 67; c <= 90; c++) {
      const root = `${String.fromCharCode(c)}:\\`;
      if (matches(root)) return root;
    }
    return null;
  }
}
