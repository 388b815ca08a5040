import type { ProxyPolicy } from '../../../src-shared/contract/settings';
import { AppError } from '../../../src-shared/errors';
import type { ClipStatus } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { joinOnVolume } from './clip-paths';
import { isTeamShareKey } from './volume-store';

/**
 * The reads of one clip (with its volume): its row, where its file is, what a hand-off file says of
 * it, its fingerprint and name. Its one writer is clips-repository.ts; where clips are on their
 * volumes is clip-place-store.ts, the Library's pages library-page-store.ts.
 */

/** A clip row joined with its volume, as stored. */
export interface ClipRow {
  id: number;
  volume_id: number;
  rel_path: string;
  file_name: string;
  size_bytes: number;
  mtime_ms: number;
  fingerprint: string | null;
  status: 'pending' | 'probed' | 'done' | 'error' | 'unsupported';
  status_reason: string | null;
  error_kind: string | null;
  missing_at: number | null;
  container: string | null;
  video_codec: string | null;
  audio_codec: string | null;
  duration_s: number | null;
  fps: number | null;
  vfr: number | null;
  width: number | null;
  height: number | null;
  rotation: number | null;
  /** Sample aspect ratio as displayed (null: no picture, or not probed yet). */
  sar: number | null;
  audio_channels: number | null;
  audio_rate: number | null;
  /** JSON array: channels per audio stream. */
  audio_layout: string | null;
  reel_name: string | null;
  timecode: string | null;
  bit_rate: number | null;
  frame_count: number | null;
  /** Where the picture ends when the file decodes short of its duration; null when whole. */
  decoded_s: number | null;
  /** The picture's pixel format as probed (whether the player can show it: proxies/native-playback.ts). */
  pix_fmt: string | null;
  probed_at: number | null;
  /** 1: a VFR clip probed before its rate was read from its pictures (catalog 0064); the background rate job reads it. */
  rate_unread: number;
  shots_at: number | null;
  thumbs_at: number | null;
  created_at: number;
  updated_at: number;
  /** Set for a clip that lives at a URL (Add by URL): its "path" is the URL. */
  source_url: string | null;
  volume_key: string;
  mount_path: string;
  volume_label: string | null;
  online: number;
  /** The volume's own choice of viewing proxies; null: the one for all (catalog migration 0055). */
  volume_proxy_policy: ProxyPolicy | null;
}

export const CLIP_COLUMNS = `c.id, c.volume_id, c.rel_path, c.file_name, c.size_bytes, c.mtime_ms, c.fingerprint, c.status,
  c.status_reason, c.error_kind, c.missing_at, c.container, c.video_codec, c.audio_codec, c.duration_s, c.fps, c.vfr,
  c.width, c.height, c.rotation, c.sar, c.audio_channels, c.audio_rate, c.audio_layout, c.reel_name, c.timecode, c.bit_rate, c.frame_count, c.decoded_s, c.pix_fmt, c.probed_at, c.rate_unread, c.shots_at,
  c.thumbs_at, c.created_at, c.updated_at, c.source_url, v.volume_key, v.mount_path, v.label AS volume_label, v.online, v.proxy_policy AS volume_proxy_policy`;

/** Where a clip's file is: its path on its volume's mount now, or the address of a clip added by URL. The one place a path is made from the catalog. */
export function clipAbsPath(row: Pick<ClipRow, 'mount_path' | 'rel_path'> & { source_url?: string | null }): string {
  return row.source_url ?? joinOnVolume(row.mount_path, row.rel_path);
}

/**
 * Channels per audio stream, as the probe stored them (clips-repository writes the column as a JSON
 * array; a catalog from before migration 0022 has none: the first stream's count).
 */
function audioLayoutOf(row: Pick<ClipRow, 'audio_layout' | 'audio_channels'>): number[] {
  if (row.audio_layout) {
    const parsed = JSON.parse(row.audio_layout) as unknown;
    if (Array.isArray(parsed)) return parsed.filter((n): n is number => typeof n === 'number' && n > 0);
  }
  return row.audio_channels ? [row.audio_channels] : [];
}

/** What a hand-off file says of a clip (export/build-export-document.ts): its file, its time base and its picture and sound. */
export interface ClipForExport {
  id: number;
  fileName: string;
  /** Its path on its volume's mount now. */
  path: string;
  /** Set for a clip added by URL: no editing application can take it. */
  sourceUrl: string | null;
  /** Set for a team clip whose file is not on this workstation (library/team-share-entries.ts): the share and the path on it. */
  teamShare: { share: string; relPath: string } | null;
  fps: number | null;
  vfr: boolean;
  durationS: number | null;
  frameCount: number | null;
  timecode: string | null;
  width: number | null;
  height: number | null;
  reel: string | null;
  /** Channels per audio stream. */
  audioLayout: number[];
  audioRate: number | null;
}

export function clipForExport(db: CatalogDb, clipId: number): ClipForExport {
  const clipExportFacts = statement(
    db,
    `SELECT c.id, c.file_name, c.rel_path, c.source_url, c.fps, c.vfr, c.duration_s, c.frame_count, c.timecode, c.width, c.height,
            c.reel_name, c.audio_layout, c.audio_channels, c.audio_rate, v.mount_path, v.volume_key, v.label AS volume_label
       FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`,
  ).get(clipId) as
    | (Pick<ClipRow, 'id' | 'file_name' | 'rel_path' | 'source_url' | 'fps' | 'vfr' | 'duration_s' | 'frame_count' | 'timecode' | 'width' | 'height' | 'reel_name' | 'audio_layout' | 'audio_channels' | 'audio_rate' | 'mount_path' | 'volume_key' | 'volume_label'>)
    | undefined;
  if (!clipExportFacts) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
  const r = clipExportFacts;
  return {
    id: r.id,
    fileName: r.file_name,
    path: clipAbsPath(r),
    sourceUrl: r.source_url,
    teamShare: isTeamShareKey(r.volume_key) ? { share: r.volume_label ?? r.mount_path, relPath: r.rel_path } : null,
    fps: r.fps,
    vfr: r.vfr === 1,
    durationS: r.duration_s,
    frameCount: r.frame_count,
    timecode: r.timecode,
    width: r.width,
    height: r.height,
    reel: r.reel_name,
    audioLayout: audioLayoutOf(r),
    audioRate: r.audio_rate,
  };
}

export function displayStatus(row: Pick<ClipRow, 'online' | 'missing_at' | 'status'>): ClipStatus {
  if (!row.online) return 'offline';
  if (row.missing_at !== null) return 'missing';
  return row.status;
}

export function getClipRow(db: CatalogDb, clipId: number): ClipRow {
  const clipWithVolume = statement(db, `SELECT ${CLIP_COLUMNS} FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`).get(clipId) as ClipRow | undefined;
  if (!clipWithVolume) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
  return clipWithVolume;
}

/** A clip's file as catalogued: everything a hand-over of it checks (playback, Open, Reveal, drag, a collection upload, a remote clip's stream). */
export interface ClipPath {
  clipId: number;
  fileName: string;
  /** Its path on its volume's mount now; for a clip added by URL, its address. */
  path: string;
  /** Its '/'-separated path on its volume. */
  relPath: string;
  sourceUrl: string | null;
  /** Its drive is connected. */
  online: boolean;
  /** An offline entry of a team clip (library/team-share-entries.ts): its "drive" is a share of the team's, never connected here. */
  teamShare: boolean;
  volumeLabel: string;
  /** Marked missing: the file was not at its path when last looked for. */
  missing: boolean;
  sizeBytes: number;
  fingerprint: string | null;
  container: string | null;
  durationS: number | null;
}

/** "Clip id -> its file": where the catalog says the clip is (null: no such clip). Read at every range request of a player, so compiled once. */
export function pathOf(db: CatalogDb, clipId: number): ClipPath | null {
  const clipFile = statement(
    db,
    `SELECT c.id, c.file_name, c.rel_path, c.source_url, c.missing_at, c.size_bytes, c.fingerprint, c.container, c.duration_s, v.volume_key, v.mount_path, v.label, v.online
     FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`,
  ).get(clipId) as
    | {
        id: number;
        file_name: string;
        rel_path: string;
        source_url: string | null;
        missing_at: number | null;
        size_bytes: number;
        fingerprint: string | null;
        container: string | null;
        duration_s: number | null;
        volume_key: string;
        mount_path: string;
        label: string | null;
        online: number;
      }
    | undefined;
  if (!clipFile) return null;
  return {
    clipId: clipFile.id,
    fileName: clipFile.file_name,
    path: clipAbsPath(clipFile),
    relPath: clipFile.rel_path,
    sourceUrl: clipFile.source_url,
    online: clipFile.online === 1,
    teamShare: isTeamShareKey(clipFile.volume_key),
    volumeLabel: clipFile.label ?? clipFile.mount_path,
    missing: clipFile.missing_at !== null,
    sizeBytes: clipFile.size_bytes,
    fingerprint: clipFile.fingerprint,
    container: clipFile.container,
    durationS: clipFile.duration_s,
  };
}

/** The clip's fingerprint now (undefined: the clip is gone): a stage compares it with the one it read before writing its results. */
export function fingerprintOf(db: CatalogDb, clipId: number): string | null | undefined {
  return (statement(db, 'SELECT fingerprint FROM clips WHERE id = ?').get(clipId) as { fingerprint: string | null } | undefined)?.fingerprint;
}

/**
 * Throws if the clip's file changed (a re-import reset it) while a stage was working on it, so a
 * stage never writes results computed from the previous content. Call inside the write's transaction.
 */
export function assertSameFile(db: CatalogDb, clipId: number, fingerprint: string | null): void {
  const cur = fingerprintOf(db, clipId);
  if (cur === undefined) throw new AppError('not_found', `clip ${clipId} was removed while it was processed`);
  // A transient state, not a verdict: the stage reads the file again (a re-import that found the
  // file changed resets the row while its probe may still be running).
  if (cur !== fingerprint) throw new AppError('io', `clip ${clipId} changed on disk while it was processed`);
}

/** The file names of the clips that exist among `ids`. */
export function clipNames(db: CatalogDb, ids: readonly number[]): Map<number, string> {
  const named = statement(db, 'SELECT id, file_name FROM clips WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(ids)) as { id: number; file_name: string }[];
  return new Map(named.map((r) => [r.id, r.file_name]));
}

/** The clip that lives at an address (Add by URL), if it was added before. */
export function clipIdAtUrl(db: CatalogDb, url: string): number | null {
  return (statement(db, 'SELECT id FROM clips WHERE source_url = ?').get(url) as { id: number } | undefined)?.id ?? null;
}

/** Clips in a catalog, all of them (what a backup is said to hold). */
export function clipCount(db: CatalogDb): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM clips').get() as { n: number }).n;
}

/**
 * Indexed VFR clips of files whose rate has not been read from their pictures (catalog 0064), online
 * or not: the background rate job's work. A clip still being indexed is left to its indexing's end
 * (pipeline `clipIndexed`), so a background job never holds up its indexing.
 */
export function clipsWithRateUnread(db: CatalogDb, onlyClip: number | null = null): number[] {
  return (
    statement(db, `SELECT id FROM clips WHERE rate_unread = 1 AND vfr = 1 AND source_url IS NULL AND status = 'done' AND (? IS NULL OR id = ?) ORDER BY id`).all(onlyClip, onlyClip) as { id: number }[]
  ).map((r) => r.id);
}
