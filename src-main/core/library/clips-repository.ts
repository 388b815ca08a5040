import { AppError } from '../../../src-shared/errors';
import type { ClipStatus } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { ProbeOutcome } from '../media/probe';
import { cataloguedState, nextClipState, type ClipEvent, type ClipMediaStatus, type ClipState } from './clip-lifecycle';
import { assertSameFile, type ClipRow } from './clip-store';
import { verdictFor } from './probe-outcome';
import { deleteShotsOf } from './shot-store';
import { deleteThumbnailsOf } from './thumbnail-store';

/**
 * The one writer of `clips`. Lifecycle columns (status, shots_at, thumbs_at, indexed_at,
 * indexed_profile) change only through an event: the next state comes from nextClipState (a new
 * row's from cataloguedState), and columns that belong to the same step (probe metadata, the
 * reason shown on the card) are written with it in one statement. Where a file is (volume, path,
 * name, date, missing mark) is written by the named writes below, for the importer, relink and
 * the drive check.
 */
type ClipColumns = Readonly<Record<string, string | number | null>>;

/** Columns an event's companions may set: everything but the lifecycle itself. */
const LIFECYCLE = new Set(['status', 'shots_at', 'thumbs_at', 'indexed_at', 'indexed_profile', 'id']);
const COLUMN = /^[a-z_]+$/;

/** The reason and kind an empty file is failed with, wherever it is found empty. */
export const EMPTY_FILE = { reason: 'empty file (0 bytes)', kind: 'media' } as const;

interface LifecycleRow {
  status: ClipMediaStatus;
  shots_at: number | null;
  thumbs_at: number | null;
  indexed_at: number | null;
}

/**
 * Applies `event` to the clip (and writes `columns` with it). A timestamp column is set when its
 * step happens now, kept when the state keeps it, cleared when the state drops it. Returns the new
 * state. `opts.indexedProfile` goes with the 'indexed' event.
 */
export function applyClipEvent(db: CatalogDb, clipId: number, event: ClipEvent, columns: ClipColumns = {}, opts: { indexedProfile?: string } = {}): ClipState {
  for (const c of Object.keys(columns)) {
    if (!COLUMN.test(c) || LIFECYCLE.has(c)) throw new AppError('internal', `clips column ${c} is not written with a lifecycle event`);
  }
  return db.transaction(() => {
    const lifecycle = statement(db, 'SELECT status, shots_at, thumbs_at, indexed_at FROM clips WHERE id = ?').get(clipId) as LifecycleRow | undefined;
    if (!lifecycle) throw new AppError('not_found', `clip ${clipId} does not exist`);
    const cur: ClipState = { status: lifecycle.status, hasShots: lifecycle.shots_at !== null, hasThumbs: lifecycle.thumbs_at !== null, indexed: lifecycle.indexed_at !== null };
    const next = nextClipState(cur, event);
    const t = Date.now();
    const stamp = (has: boolean, old: number | null, now: boolean) => (!has ? null : now || old === null ? t : old);
    const values: Record<string, string | number | null> = {
      ...columns,
      status: next.status,
      shots_at: stamp(next.hasShots, lifecycle.shots_at, event.type === 'shotsDetected'),
      thumbs_at: stamp(next.hasThumbs, lifecycle.thumbs_at, event.type === 'thumbnailsMade'),
      indexed_at: stamp(next.indexed, lifecycle.indexed_at, event.type === 'indexed'),
      updated_at: t,
    };
    if (event.type === 'indexed') values.indexed_profile = opts.indexedProfile ?? null;
    const names = Object.keys(values);
    // Column names come from the checks above (lower-case identifiers), values are placeholders.
    // A handful of texts (one per set of columns a caller passes): compiled once each per connection.
    statement(db, `UPDATE clips SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...values, id: clipId });
    return next;
  })();
}

/** A file (or an address) to catalogue. */
export interface NewClip {
  volumeId: number;
  relPath: string;
  fileName: string;
  sizeBytes: number;
  mtimeMs: number;
  fingerprint: string | null;
  /** Set for a clip that lives at an address (Add by URL): it has no bytes of its own here. */
  sourceUrl?: string;
}

/** Catalogues a new clip in the lifecycle's first state (an empty file has failed already); returns its id. */
export function catalogueClip(db: CatalogDb, c: NewClip, at = Date.now()): number {
  const empty = c.sourceUrl === undefined && c.sizeBytes === 0;
  const { status } = cataloguedState(empty);
  const inserted = statement(
    db,
    `INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, fingerprint, status, status_reason, error_kind, source_url, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(c.volumeId, c.relPath, c.fileName, c.sizeBytes, c.mtimeMs, c.fingerprint, status, empty ? EMPTY_FILE.reason : null, empty ? EMPTY_FILE.kind : null, c.sourceUrl ?? null, at, at) as {
    id: number;
  };
  return inserted.id;
}

/** What a probe writes on a clip: the facts parsed from ffprobe's answer and the answer itself. */
const PROBE_COLUMNS = ['container', 'video_codec', 'audio_codec', 'duration_s', 'fps', 'vfr', 'width', 'height', 'rotation', 'sar', 'audio_channels', 'audio_rate', 'audio_layout', 'reel_name', 'timecode', 'bit_rate', 'frame_count', 'pix_fmt', 'probe_json', 'probed_at'] as const;

/** The probe's columns, one value each (a content reset clears the same list, so no fact outlives the file it was read from). */
function probeFacts(info: ProbeOutcome['info'], raw: unknown, frameCount: number | null): Record<(typeof PROBE_COLUMNS)[number], string | number | null> {
  return {
    container: info.container,
    video_codec: info.videoCodec,
    audio_codec: info.audioCodec,
    duration_s: info.durationS,
    fps: info.fps,
    vfr: info.hasVideo ? (info.vfr ? 1 : 0) : null,
    width: info.width,
    height: info.height,
    rotation: info.hasVideo ? info.rotation : null,
    sar: info.hasVideo ? info.sar : null,
    audio_channels: info.audioChannels,
    audio_rate: info.audioRate === null ? null : Math.round(info.audioRate),
    audio_layout: JSON.stringify(info.audioLayout),
    reel_name: info.reelName,
    timecode: info.timecode,
    bit_rate: info.bitRate === null ? null : Math.round(info.bitRate),
    frame_count: frameCount,
    pix_fmt: info.pixFmt,
    probe_json: JSON.stringify(raw),
    probed_at: Date.now(),
  };
}

/** The file's content changed: new identity; its metadata, shots and thumbnails are stale and go. */
export function resetClipContent(db: CatalogDb, clipId: number, file: { size: number; mtimeMs: number; fingerprint: string | null }): void {
  db.transaction(() => {
    deleteThumbnailsOf(db, clipId);
    deleteShotsOf(db, clipId);
    const empty = file.size === 0;
    applyClipEvent(db, clipId, { type: 'contentChanged', empty }, {
      ...Object.fromEntries(PROBE_COLUMNS.map((c) => [c, null])),
      size_bytes: file.size,
      mtime_ms: file.mtimeMs,
      fingerprint: file.fingerprint,
      status_reason: empty ? EMPTY_FILE.reason : null,
      error_kind: empty ? EMPTY_FILE.kind : null,
      missing_at: null,
      // The new content's probe reads its rate from its pictures: nothing left for the background.
      rate_unread: 0,
    });
  })();
}

/** Stores a probe of the file `row` was read from (refused if it changed since); returns the clip's new stored status. */
export function recordProbe(db: CatalogDb, row: ClipRow, outcome: ProbeOutcome): ClipStatus {
  const { info } = outcome;
  const verdict = verdictFor(info);
  return db.transaction(() => {
    assertSameFile(db, row.id, row.fingerprint);
    // Shot detection counts frames exactly; the probe's count only stands in until it has run.
    const frameCount = row.shots_at !== null && row.frame_count !== null ? row.frame_count : info.frameCount;
    return applyClipEvent(db, row.id, { type: 'probed', verdict: verdict.status }, {
      status_reason: verdict.reason,
      error_kind: verdict.errorKind,
      ...probeFacts(info, outcome.raw, frameCount),
      // The probe reads a VFR clip's rate from its pictures: nothing is left for the background rate job.
      rate_unread: 0,
    }).status;
  })();
}

/**
 * A VFR clip probed before its rate was read from its pictures, read now (the background rate job):
 * the rate they show (`fps`; null: they show none, or ffprobe could not read them, and the rate
 * stands), and it is not read again. Refused if the file changed since `row` was read. Returns
 * whether the rate changed.
 */
export function recordPictureRate(db: CatalogDb, row: ClipRow, fps: number | null, at = Date.now()): boolean {
  return db.transaction(() => {
    assertSameFile(db, row.id, row.fingerprint);
    const changed = fps !== null && fps !== row.fps;
    // Only a clip still marked and VFR: one whose content was reset (and probed again) since `row` was read keeps what its probe wrote.
    const updated = statement(db, 'UPDATE clips SET fps = COALESCE(?, fps), rate_unread = 0, updated_at = ? WHERE id = ? AND rate_unread = 1 AND vfr = 1').run(changed ? fps : null, at, row.id);
    return changed && updated.changes > 0;
  })();
}

/** The media cannot be read (a decode failed, ffprobe refused it, the file is empty): the card says why. */
export function recordClipFailure(db: CatalogDb, clipId: number, status: 'error' | 'unsupported', kind: string, reason: string): void {
  applyClipEvent(db, clipId, { type: 'failed', status }, { error_kind: kind, status_reason: reason });
}

/** The clip's file is now at another place (moved, relinked): everything derived from it stays. */
export function moveClip(db: CatalogDb, clipId: number, to: { volumeId: number; relPath: string; fileName: string; mtimeMs: number }, at = Date.now()): void {
  statement(db, 'UPDATE clips SET volume_id = ?, rel_path = ?, file_name = ?, mtime_ms = ?, missing_at = NULL, updated_at = ? WHERE id = ?').run(
    to.volumeId,
    to.relPath,
    to.fileName,
    to.mtimeMs,
    at,
    clipId,
  );
}

/** The file is there with the same content under a new size or date (touched, copied back): only those change. */
export function recordSameContent(db: CatalogDb, clipId: number, file: { size: number; mtimeMs: number }, at = Date.now()): void {
  statement(db, 'UPDATE clips SET size_bytes = ?, mtime_ms = ?, missing_at = NULL, updated_at = ? WHERE id = ?').run(file.size, file.mtimeMs, at, clipId);
}

/** The file was not at its path: marked missing (never deleted). Returns whether the mark is new. */
export function markClipMissing(db: CatalogDb, clipId: number, at = Date.now()): boolean {
  return statement(db, 'UPDATE clips SET missing_at = ?, updated_at = ? WHERE id = ? AND missing_at IS NULL').run(at, at, clipId).changes > 0;
}

/** The file is at its path again. */
export function clearClipMissing(db: CatalogDb, clipId: number, at = Date.now()): void {
  statement(db, 'UPDATE clips SET missing_at = NULL, updated_at = ? WHERE id = ? AND missing_at IS NOT NULL').run(at, clipId);
}

/** A clip added by URL again, under another name. */
export function renameClip(db: CatalogDb, clipId: number, fileName: string, at = Date.now()): void {
  statement(db, 'UPDATE clips SET file_name = ?, updated_at = ? WHERE id = ?').run(fileName, at, clipId);
}

/** Removes a clip and everything derived from it (a duplicate giving way to the relinked original). */
export function removeClip(db: CatalogDb, clipId: number): void {
  statement(db, 'DELETE FROM clips WHERE id = ?').run(clipId);
}
