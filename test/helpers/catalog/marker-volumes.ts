import fs from 'node:fs';
import path from 'node:path';
import type { VolumeInfo, VolumeResolver } from '../../../src-main/core/library/volumes/volume-resolver';

/**
 * Folders that stand in for drives: each has a `.volume-id` file with its identity, so a test can
 * "unplug" one (rename it away) and "plug it back" somewhere else. Anything else is the root volume.
 */
export class MarkerVolumes implements VolumeResolver {
  constructor(public mounts: string[]) {}
  refresh(): void {}
  volumeFor(p: string): VolumeInfo {
    const m = this.mounts.filter((d) => p === d || p.startsWith(d + path.sep)).sort((a, b) => b.length - a.length)[0];
    if (!m) return { key: 'root', mountPath: '/', label: '/' };
    return { key: fs.readFileSync(path.join(m, '.volume-id'), 'utf8'), mountPath: m, label: path.basename(m) };
  }
  locate(key: string): string | null {
    if (key === 'root') return '/';
    return this.mounts.find((d) => fs.existsSync(path.join(d, '.volume-id')) && fs.readFileSync(path.join(d, '.volume-id'), 'utf8') === key) ?? null;
  }
}
