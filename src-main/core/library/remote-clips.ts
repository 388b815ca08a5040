import type { CatalogDb } from '../catalog/open-catalog';
import type { ProbeOutcome } from '../media/probe';
import { applyClipEvent, catalogueClip, recordProbe, renameClip } from './clips-repository';
import { clipIdAtUrl, getClipRow } from './clip-store';
import { replaceShots, shotsOfClip } from './shot-store';
import { upsertVolume, URL_VOLUME_KEY } from './volume-store';

/**
 * The profile a clip added by URL is indexed with: its segments came from the service's reading
 * of the address, never from local tensors, and the pipeline never indexes it again.
 */
export const URL_PROFILE_ID = 'url';

/** The one volume every clip added by URL hangs off (never offline: an address is not a drive). */
function urlVolume(db: CatalogDb): number {
  return upsertVolume(db, { key: URL_VOLUME_KEY, mountPath: '', label: 'Web' });
}

/** "https://cdn.example/reviews/A001%20v2.mp4?sig=..." -> "A001 v2.mp4". */
export function nameFromUrl(url: string): string {
  const u = new URL(url);
  const last = u.pathname.split('/').filter(Boolean).pop();
  try {
    return (last ? decodeURIComponent(last) : '') || u.hostname;
  } catch {
    return last || u.hostname;
  }
}

/**
 * Catalogues (or finds again) a clip that lives at `url`, from main's probe of the address: its
 * metadata, and one shot spanning the clip (the service does not say where its cuts are). The
 * poster and filmstrip come next (remote/remote-clip-media.ts: saving them makes it `done`).
 * Returns the clip, its shot and the duration it spans.
 */
export function catalogueRemoteClip(db: CatalogDb, url: string, name: string, probe: ProbeOutcome): { clipId: number; shotId: number; durationS: number } {
  return db.transaction(() => {
    const volumeId = urlVolume(db);
    const now = Date.now();
    const known = clipIdAtUrl(db, url);
    const clipId = known ?? catalogueClip(db, { volumeId, relPath: url, fileName: name, sizeBytes: 0, mtimeMs: now, fingerprint: null, sourceUrl: url }, now);
    if (known !== null) renameClip(db, clipId, name, now);
    recordProbe(db, getClipRow(db, clipId), probe);
    const duration = getClipRow(db, clipId).duration_s ?? 0;
    replaceShots(db, clipId, [{ idx: 0, startS: 0, endS: duration, startFrame: null, endFrame: null, cutScore: null }]);
    const shotId = shotsOfClip(db, clipId)[0]!.id;
    applyClipEvent(db, clipId, { type: 'shotsDetected', sameShots: false });
    return { clipId, shotId, durationS: duration };
  })();
}

/**
 * A clip another seat of the team added by URL (team/syncs/clip-arrivals.ts), catalogued at its
 * address as this seat's own Add by URL would catalogue it, without reading the address here: its
 * duration is where the team's shots end, and its shots, segments, tags and pictures are the team's
 * (copied next, team/syncs/clip-sharing.ts `placeUrlClip`). It is then a URL clip like any: it shows
 * its address, and plays and is read through this seat's own address rules (remote/). Returns its
 * id, or null when this catalog has the address already (the seat added it itself).
 */
export function catalogueTeamUrlClip(db: CatalogDb, c: { url: string; name: string; durationS: number | null }, at = Date.now()): number | null {
  return db.transaction(() => {
    if (clipIdAtUrl(db, c.url) !== null) return null;
    const volumeId = urlVolume(db);
    const clipId = catalogueClip(db, { volumeId, relPath: c.url, fileName: c.name, sizeBytes: 0, mtimeMs: at, fingerprint: null, sourceUrl: c.url }, at);
    applyClipEvent(db, clipId, { type: 'probed', verdict: 'probed' }, { duration_s: c.durationS });
    return clipId;
  })();
}
