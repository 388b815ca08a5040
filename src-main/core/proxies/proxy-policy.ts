import type { ProxyPolicy } from '../../../src-shared/contract/settings';
import { nativePlayback, type PlaybackFacts } from './native-playback';

export type { ProxyPolicy };

export interface ProxySettings {
  policy: ProxyPolicy;
  budgetBytes: number;
}

/**
 * A volume the footage may leave with: anything but the system's own disk. macOS mounts every
 * other disk under /Volumes, Linux under /media, /run/media or /mnt (network shares anywhere but
 * the root), Windows gives every other disk or share its own letter or a UNC path.
 */
export function isDetachableMount(mountPath: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return !/^[cC]:[\\/]?$/.test(mountPath);
  if (platform === 'darwin') return mountPath.startsWith('/Volumes/');
  return mountPath !== '/' && mountPath !== '/home';
}

/** Bytes a proxy of `durationS` seconds takes at most (picture and sound at their ceilings). */
export function proxyBytesFor(durationS: number | null): number {
  return Math.ceil(Math.max(1, durationS ?? 60) * ((1500 * 1.5 + 128) * 1000 / 8));
}

/**
 * Room a new proxy needs on the cache's disk: its own size at most, plus a reserve so that the
 * catalog and the rest of the work never meet a disk the proxies filled. Below it proxies stop
 * (the clip plays as before) and everything else carries on.
 */
export const PROXY_RESERVE_BYTES = 1024 ** 3;

export function roomForProxy(freeBytes: number, durationS: number | null): boolean {
  return freeBytes >= proxyBytesFor(durationS) + PROXY_RESERVE_BYTES;
}

/** A volume's own choice, else the one for all (Settings). */
export function volumeProxyPolicy(forAll: ProxyPolicy, volume: ProxyPolicy | null): ProxyPolicy {
  return volume ?? forAll;
}

/**
 * Whether the clip's analysis decode also writes a proxy. 'needed': the player cannot show the
 * original, or it lives on a drive that may be unplugged (so the clip can still be watched
 * without it); 'always' and 'never' say it all.
 */
export function wantsProxy(policy: ProxyPolicy, clip: PlaybackFacts, detachable: boolean): boolean {
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return detachable || !nativePlayback(clip).ok;
}
