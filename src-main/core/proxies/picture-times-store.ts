import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/** The one owner of `picture_times` (migration 0057): a conformed clip's presentation times, float64 seconds in a blob. */
export function pictureTimesOf(db: CatalogDb, clipId: number, fingerprint: string | null): number[] | null {
  const row = statement(db, 'SELECT fingerprint, times FROM picture_times WHERE clip_id = ?').get(clipId) as { fingerprint: string | null; times: Buffer } | undefined;
  if (!row || row.fingerprint !== fingerprint || row.times.length % 8 !== 0) return null;
  // A copy: the blob's bytes need not sit on an 8-byte boundary.
  const bytes = Uint8Array.from(row.times);
  return Array.from(new Float64Array(bytes.buffer, 0, bytes.length / 8));
}

export function recordPictureTimes(db: CatalogDb, clipId: number, fingerprint: string | null, times: readonly number[]): void {
  const blob = Buffer.from(Float64Array.from(times).buffer);
  statement(db, 'INSERT INTO picture_times (clip_id, fingerprint, times) VALUES (?, ?, ?) ON CONFLICT (clip_id) DO UPDATE SET fingerprint = excluded.fingerprint, times = excluded.times').run(clipId, fingerprint, blob);
}
