import type { ClipRow } from '../../library/clip-store';
import { clipAbsPath } from '../../library/clip-store';
import { discardProxy, enforceProxyBudget, finishProxy, planProxy, type ProxyPlan } from '../../proxies/proxy-files';
import { isDetachableMount, roomForProxy, volumeProxyPolicy, wantsProxy } from '../../proxies/proxy-policy';
import { freeBytes, formatBytes } from '../../util/disk-space';
import { proxyOf } from '../../proxies/proxy-store';
import type { StageDeps } from '../pipeline-deps';

/**
 * A viewing proxy for a decode of this clip to write, when the settings want one for it and it
 * has none made from its current content (clips added by URL are watched from their address).
 */
export async function proxyPlanFor(d: StageDeps, row: ClipRow, threads: number): Promise<(ProxyPlan & { filePath: string }) | null> {
  if (row.source_url !== null) return null;
  const have = proxyOf(d.db, row.id);
  if (have && have.fingerprint === row.fingerprint) return null;
  const facts = { container: row.container, videoCodec: row.video_codec, pixFmt: row.pix_fmt, audioCodec: row.audio_codec };
  if (!wantsProxy(volumeProxyPolicy(d.proxySettings().policy, row.volume_proxy_policy), facts, isDetachableMount(row.mount_path, process.platform))) return null;
  const free = freeBytes(d.cacheDir);
  if (!roomForProxy(free, row.duration_s)) {
    // Settings says so (playback.proxySpace); the clip plays as before and its indexing goes on.
    d.logger?.warn('proxy.no_room', { clipId: row.id, free: formatBytes(free) });
    return null;
  }
  const picture = { container: row.container, videoCodec: row.video_codec, pixFmt: row.pix_fmt, height: row.height, rotation: row.rotation, bitRate: row.bit_rate };
  const clip = { id: row.id, fingerprint: row.fingerprint, fps: row.fps, vfr: row.vfr === 1, audioCodec: row.audio_codec, audioChannels: row.audio_channels, picture };
  return { ...planProxy(d.cacheDir, clip, await d.proxyEncoder(), threads), filePath: clipAbsPath(row) };
}

/**
 * The decode is over: the proxy is kept (its frames counted) and the budget enforced, the least
 * recently played going first. A proxy is a convenience: one that cannot be kept leaves the clip
 * playing as before, so nothing here fails the stage.
 */
export async function keepProxy(d: StageDeps, plan: ProxyPlan, signal: AbortSignal): Promise<void> {
  const frames = await finishProxy(d.db, d.cacheDir, plan, { ffprobe: d.tools().ffprobe, signal }).catch((e: unknown) => {
    discardProxy(plan);
    d.logger?.warn('proxy.dropped', { clipId: plan.clipId, reason: e instanceof Error ? e.message : String(e) });
    return null;
  });
  if (frames === null) return;
  d.mediaChanged(plan.clipId);
  for (const evicted of enforceProxyBudget(d.db, d.cacheDir, d.proxySettings().budgetBytes, plan.clipId)) d.mediaChanged(evicted);
}
