import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { isDetachableMount, wantsProxy, type ProxyPolicy } from './proxy-policy';

/**
 * Clips that want a viewing proxy and have none made from their current content, among those
 * whose analysis decode is over (a clip still being indexed gets its proxy from that decode).
 * The background proxy work (pipeline/stages/proxy-stage.ts) is queued for these.
 */
export function clipsMissingProxies(db: CatalogDb, policy: ProxyPolicy, platform: NodeJS.Platform, onlyClip: number | null = null): number[] {
  if (policy === 'never') return [];
  const rows = statement(
    db,
    `SELECT c.id, c.container, c.video_codec, c.pix_fmt, c.audio_codec, v.mount_path
     FROM clips c JOIN volumes v ON v.id = c.volume_id
     LEFT JOIN proxies p ON p.clip_id = c.id AND p.fingerprint IS c.fingerprint
     WHERE (? IS NULL OR c.id = ?) AND c.source_url IS NULL AND c.status = 'done' AND c.shots_at IS NOT NULL AND p.clip_id IS NULL
     ORDER BY c.id`,
  ).all(onlyClip, onlyClip) as { id: number; container: string | null; video_codec: string | null; pix_fmt: string | null; audio_codec: string | null; mount_path: string }[];
  return rows
    .filter((r) => wantsProxy(policy, { container: r.container, videoCodec: r.video_codec, pixFmt: r.pix_fmt, audioCodec: r.audio_codec }, isDetachableMount(r.mount_path, platform)))
    .map((r) => r.id);
}
