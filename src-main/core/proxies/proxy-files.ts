import fs from 'node:fs';
import path from 'node:path';
import type { CatalogDb } from '../catalog/open-catalog';
import { closeLastSample } from '../media/mp4/last-sample';
import { readPictureTimes } from '../media/probe';
import type { ProxyEncoder } from '../media/proxy-encoder';
import { PROXY_DEFAULTS, proxyAudio, proxyGop, type ProxyRequest } from '../media/proxy-branch';
import { proxyPicture, type PictureFacts } from './proxy-picture';
import { forgetProxy, proxiesByUse, proxyBytes, proxyOf, recordProxy } from './proxy-store';

/** Proxies live in the cache folder, named by clip and content, so a changed file never meets an old proxy. */
export function proxyRelPath(clipId: number, fingerprint: string | null): string {
  const tag = (fingerprint ?? 'nofp').replace(/[^0-9a-zA-Z]/g, '').slice(0, 12) || 'nofp';
  return path.posix.join('proxies', `${clipId}-${tag}.mp4`);
}

/** A proxy being written: ffmpeg writes `.part`; only a finished decode renames it. */
export interface ProxyPlan {
  clipId: number;
  fingerprint: string | null;
  rel: string;
  request: ProxyRequest;
}

export function planProxy(
  cacheDir: string,
  clip: { id: number; fingerprint: string | null; fps: number | null; vfr: boolean; audioCodec: string | null; audioChannels: number | null; picture: PictureFacts },
  encoder: ProxyEncoder,
  threads?: number,
): ProxyPlan {
  const rel = proxyRelPath(clip.id, clip.fingerprint);
  const abs = path.join(cacheDir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  return {
    clipId: clip.id,
    fingerprint: clip.fingerprint,
    rel,
    request: { outFile: `${abs}.part`, height: PROXY_DEFAULTS.height, videoKbps: PROXY_DEFAULTS.videoKbps, gop: proxyGop(clip.fps), audio: proxyAudio(clip.audioCodec, clip.audioChannels), threads, encoder, vfr: clip.vfr, fps: clip.fps, picture: proxyPicture(clip.picture) },
  };
}

export function discardProxy(plan: ProxyPlan): void {
  fs.rmSync(plan.request.outFile, { force: true });
}

/**
 * The decode is over: a last picture written without a duration gets one (a VFR proxy's, which
 * players would leave out otherwise: media/mp4/last-sample.ts), the proxy's frames are counted
 * from its container as a player presents them (readPictureTimes: not the packets an edit list
 * hides; a MOV trimmed with `-ss` and `-c copy` keeps the pictures from the keyframe before its cut
 * behind such an edit, and its copied proxy counted as packets held 45 frames where the decode of
 * the original, the clip's frame_count, has 37: test/integration/proxy-edit-lists.test.ts), the file takes its name
 * and the catalog its row. An empty or unreadable file is dropped (the clip plays as before).
 * Returns the frames the proxy holds, or null when nothing was kept.
 */
export async function finishProxy(db: CatalogDb, cacheDir: string, plan: ProxyPlan, opts: { ffprobe?: string; signal?: AbortSignal; now?: number } = {}): Promise<number | null> {
  const part = plan.request.outFile;
  const size = fs.statSync(part, { throwIfNoEntry: false })?.size ?? 0;
  if (size > 0) await closeLastSample(part).catch(() => false);
  const frames = size > 0 ? ((await readPictureTimes(part, opts).catch(() => null))?.length ?? null) : null;
  if (!frames) {
    discardProxy(plan);
    return null;
  }
  const old = proxyOf(db, plan.clipId);
  const abs = path.join(cacheDir, plan.rel);
  fs.renameSync(part, abs);
  recordProxy(db, { clip_id: plan.clipId, file: plan.rel, fingerprint: plan.fingerprint, bytes: size, frames, made_at: opts.now ?? Date.now() });
  if (old && old.file !== plan.rel) fs.rmSync(path.join(cacheDir, old.file), { force: true });
  return frames;
}

/** The clip's proxy leaves the disk and the catalog (evicted, or made from content that changed). */
export function deleteProxy(db: CatalogDb, cacheDir: string, clipId: number): void {
  const row = proxyOf(db, clipId);
  if (!row) return;
  forgetProxy(db, clipId);
  fs.rmSync(path.join(cacheDir, row.file), { force: true });
}

/**
 * Keeps the proxies within the budget: the least recently played go first, never `keep` (the
 * one just made). Returns the clips whose proxy was removed.
 */
export function enforceProxyBudget(db: CatalogDb, cacheDir: string, budgetBytes: number, keep: number | null): number[] {
  let { bytes } = proxyBytes(db);
  const evicted: number[] = [];
  for (const row of proxiesByUse(db)) {
    if (bytes <= budgetBytes) break;
    if (row.clip_id === keep) continue;
    deleteProxy(db, cacheDir, row.clip_id);
    bytes -= row.bytes;
    evicted.push(row.clip_id);
  }
  return evicted;
}
