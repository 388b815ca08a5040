import type { CatalogDb } from '../catalog/open-catalog';
import type { ProbeOutcome } from '../media/probe';
import { applyClipEvent } from './clips-repository';
import { getClipRow } from './clip-store';
import { replaceShots, writeProbe } from './media-stages';
import { upsertVolume, URL_VOLUME_KEY } from './volume-store';

/**
 * The profile a clip added by URL is indexed with: its segments came from the service's reading
 * of the address, never from local tensors, and the pipeline never indexes it again.
 */
export const URL_PROFILE_ID = 'url';

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
 * Returns the clip and its shot.
 */
export function catalogueRemoteClip(db: CatalogDb, url: string, name: string, probe: ProbeOutcome): { clipId: number; shotId: number } {
  return db.transaction(() => {
    const volumeId = upsertVolume(db, { key: URL_VOLUME_KEY, mountPath: '', label: 'Web' });
    const now = Date.now();
    const known = db.prepare('SELECT id FROM clips WHERE source_url = ?').get(url) as { id: number } | undefined;
    const clipId =
      known?.id ??
      (
        db
          .prepare(
            `INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, fingerprint, status, source_url, created_at, updated_at)
             VALUES (?, ?, ?, 0, ?, NULL, 'pending', ?, ?, ?) RETURNING id`,
          )
          .get(volumeId, url, name, now, url, now, now) as { id: number }
      ).id;
    db.prepare('UPDATE clips SET file_name = ?, updated_at = ? WHERE id = ?').run(name, now, clipId);
    writeProbe(db, getClipRow(db, clipId), probe);
    const duration = getClipRow(db, clipId).duration_s ?? 0;
    replaceShots(db, clipId, [{ idx: 0, startS: 0, endS: duration, startFrame: null, endFrame: null, cutScore: null }]);
    const shotId = (db.prepare('SELECT id FROM shots WHERE clip_id = ?').get(clipId) as { id: number }).id;
    applyClipEvent(db, clipId, { type: 'shotsDetected', sameShots: false });
    return { clipId, shotId };
  })();
}
