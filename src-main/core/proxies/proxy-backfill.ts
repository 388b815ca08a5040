import type { CatalogDb } from '../catalog/open-catalog';
import { isDetachableMount, volumeProxyPolicy, wantsProxy, type ProxyPolicy } from './proxy-policy';
import { clipsWithoutProxy } from './proxy-store';

/**
 * Clips that want a viewing proxy (their volume's choice, else `policy`) and have none made from their current content, among those
 * whose analysis decode is over (a clip still being indexed gets its proxy from that decode).
 * The background proxy work (pipeline/stages/proxy-stage.ts) is queued for these.
 */
export function clipsMissingProxies(db: CatalogDb, policy: ProxyPolicy, platform: NodeJS.Platform, onlyClip: number | null = null): number[] {
  const rows = clipsWithoutProxy(db, onlyClip);
  return rows
    .filter((r) => wantsProxy(volumeProxyPolicy(policy, r.proxy_policy), { container: r.container, videoCodec: r.video_codec, pixFmt: r.pix_fmt, audioCodec: r.audio_codec }, isDetachableMount(r.mount_path, platform)))
    .map((r) => r.id);
}
