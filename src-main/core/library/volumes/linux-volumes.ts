import fs from 'node:fs';
import path from 'node:path';
import { mountFor, parseMountinfo, type MountEntry } from './mountinfo';
import { mountLabel, type VolumeInfo, type VolumeResolver } from './volume-resolver';

export interface LinuxVolumeOptions {
  mountinfoPath?: string;
  diskDir?: string;
  /** How long a read of the mount table is trusted. */
  cacheMs?: number;
}

/** Reads /dev/disk/by-uuid or by-label: device node -> name. */
function readDiskLinks(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      out.set(fs.realpathSync(path.join(dir, name)), name.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
    } catch {
      /* a dangling link while a disk goes away */
    }
  }
  return out;
}

/**
 * Linux: the mount point comes from /proc/self/mountinfo; identity is the filesystem UUID (or label)
 * of the block device, so a card mounted at /media/me/CARD today and /media/me/CARD1 tomorrow is the
 * same volume. Network and virtual filesystems fall back to source (+ mount point when the source
 * says nothing, as for tmpfs).
 */
export class LinuxVolumeResolver implements VolumeResolver {
  private cache: { at: number; mounts: MountEntry[]; uuids: Map<string, string>; labels: Map<string, string> } | null = null;

  constructor(private readonly opts: LinuxVolumeOptions = {}) {}

  refresh(): void {
    this.cache = null;
  }

  private table() {
    const now = Date.now();
    if (this.cache && now - this.cache.at < (this.opts.cacheMs ?? 2000)) return this.cache;
    let text = '';
    try {
      text = fs.readFileSync(this.opts.mountinfoPath ?? '/proc/self/mountinfo', 'utf8');
    } catch {
      /* no procfs (a locked-down container): everything falls under '/' */
    }
    const diskDir = this.opts.diskDir ?? '/dev/disk';
    this.cache = {
      at: now,
      mounts: parseMountinfo(text),
      uuids: readDiskLinks(path.join(diskDir, 'by-uuid')),
      labels: readDiskLinks(path.join(diskDir, 'by-label')),
    };
    return this.cache;
  }

  private describe(m: MountEntry): VolumeInfo {
    const t = this.table();
    const sub = m.root !== '/' ? `#${m.root}` : '';
    const label = t.labels.get(m.source);
    let key: string;
    if (m.source.startsWith('/')) {
      const uuid = t.uuids.get(m.source);
      key = uuid ? `uuid:${uuid}${sub}` : label ? `label:${label}${sub}` : `dev:${m.source}${sub}`;
    } else if (/^[^/]+:\//.test(m.source) || m.source.startsWith('//')) {
      key = `net:${m.source}${sub}`;
    } else {
      key = `${m.fsType}:${m.mountPoint}${sub}`;
    }
    return { key, mountPath: m.mountPoint, label: label ?? mountLabel(m.mountPoint) };
  }

  volumeFor(realPath: string): VolumeInfo {
    const m = mountFor(this.table().mounts, realPath);
    if (!m) return { key: 'mount:/', mountPath: '/', label: mountLabel('/') };
    return this.describe(m);
  }

  locate(key: string, lastMountPath: string): string | null {
    const mounts = this.table().mounts;
    const found: string[] = [];
    for (const m of mounts) if (this.describe(m).key === key) found.push(m.mountPoint);
    if (found.length === 0) return null;
    return found.includes(lastMountPath) ? lastMountPath : found[0]!;
  }
}
