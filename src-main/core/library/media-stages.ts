import fs from 'node:fs';
import path from 'node:path';
import { AppError, toAppError } from '../../../src-shared/errors';
import type { ClipStatus } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import type { DetectedShot, ShotDetection } from '../media/shot-detector';
import { probeFile, type ProbeOutcome } from '../media/probe';
import { renderKeyframePoster, type RenderedStills, type StillsRequest } from '../media/stills';
import { thumbnailDir } from './clip-paths';
import { clipAbsPath, getClipRow, type ClipRow } from './clip-store';
import { applyClipEvent } from './clips-repository';
import { fingerprintFile } from './fingerprint';
import { verdictFor } from './probe-outcome';

export interface StageOptions {
  signal?: AbortSignal;
  /** Fraction of this stage done, 0..1. */
  onProgress?: (fraction: number) => void;
  ffmpeg?: string;
  ffprobe?: string;
}

/** Tiles in the hover-scrub filmstrip. */
export const FILMSTRIP_FRAMES = 12;

const now = () => Date.now();

/**
 * Throws if the clip's file changed (a re-import reset it) while a stage was working on it, so a
 * stage never writes results computed from the previous content.
 */
function assertSameFile(db: CatalogDb, clipId: number, fingerprint: string | null): void {
  const cur = db.prepare('SELECT fingerprint FROM clips WHERE id = ?').get(clipId) as { fingerprint: string | null } | undefined;
  if (!cur) throw new AppError('not_found', `clip ${clipId} was removed while it was processed`);
  // A transient state, not a verdict: the stage reads the file again (a re-import that found the
  // file changed resets the row while its probe may still be running).
  if (cur.fingerprint !== fingerprint) throw new AppError('io', `clip ${clipId} changed on disk while it was processed`);
}

export function setClipFailure(db: CatalogDb, clipId: number, status: 'error' | 'unsupported', kind: string, reason: string): void {
  applyClipEvent(db, clipId, { type: 'failed', status }, { error_kind: kind, status_reason: reason });
}

/** ffmpeg's words when the disk it writes to (thumbnails, the filmstrip) is full: the disk's fault, not the clip's. */
const NO_SPACE = /No space left on device|Disk quota exceeded/i;

/** Errors of a file whose path is gone (the drive or a folder above it moved away), not of its content. */
const AWAY = new Set(['ENOENT', 'ENOTDIR', 'ENODEV', 'ENXIO', 'EIO']);

/**
 * The file must be reachable: an offline volume or a vanished file is waited for (`unplugged`:
 * the job looks again by itself, or when the Library finds the file back), never turned into a
 * clip error.
 */
function requireFile(db: CatalogDb, row: ClipRow): { abs: string; st: fs.Stats } {
  if (!row.online) throw new AppError('unplugged', `volume "${row.volume_label ?? row.mount_path}" is not connected`);
  const abs = clipAbsPath(row);
  try {
    const st = fs.statSync(abs);
    if (row.missing_at !== null) db.prepare('UPDATE clips SET missing_at = NULL WHERE id = ?').run(row.id);
    return { abs, st };
  } catch (e) {
    const away = awayError(db, row, e);
    if (away) throw away;
    throw new AppError('io', `cannot read ${abs}: ${(e as Error).message}`, { cause: e });
  }
}

/** The `unplugged` error for a stat failure that means the file is away (marked missing), else null. */
function awayError(db: CatalogDb, row: ClipRow, e: unknown): AppError | null {
  if (!AWAY.has((e as NodeJS.ErrnoException).code ?? '')) return null;
  db.prepare('UPDATE clips SET missing_at = COALESCE(missing_at, ?) WHERE id = ?').run(now(), row.id);
  return new AppError('unplugged', `file is no longer at ${clipAbsPath(row)}: waiting for it to come back`, { cause: e });
}

/**
 * After ffmpeg or ffprobe failed on a clip: the file going away under it (a drive unplugged, its
 * folder renamed) is not a fault of the file. Returns the `unplugged` error to throw instead of
 * recording the clip as unreadable, or null when the file is still there.
 */
export function fileWentAway(db: CatalogDb, row: ClipRow): AppError | null {
  try {
    fs.statSync(clipAbsPath(row));
    return null;
  } catch (e) {
    return awayError(db, row, e);
  }
}

/**
 * Stage 1: ffprobe the file and store its metadata. A file edited since it was catalogued gets its
 * size, date and fingerprint refreshed first (and loses its old shots). Unreadable media end as
 * status error/unsupported with a reason; only cancellation and an offline volume throw.
 */
export async function probeClip(db: CatalogDb, clipId: number, opts: StageOptions = {}): Promise<ClipStatus> {
  let row = getClipRow(db, clipId);
  const { abs, st } = requireFile(db, row);
  if (st.size !== row.size_bytes || Math.floor(st.mtimeMs) !== row.mtime_ms || row.fingerprint === null) {
    const fp = await fingerprintFile(abs, st.size);
    if (fp !== row.fingerprint) resetClipContent(db, clipId, { size: st.size, mtimeMs: Math.floor(st.mtimeMs), fingerprint: fp });
    else db.prepare('UPDATE clips SET size_bytes = ?, mtime_ms = ? WHERE id = ?').run(st.size, Math.floor(st.mtimeMs), clipId);
    row = getClipRow(db, clipId);
  }
  if (row.size_bytes === 0) {
    setClipFailure(db, clipId, 'error', 'media', 'empty file (0 bytes)');
    return 'error';
  }
  let outcome: ProbeOutcome;
  try {
    outcome = await probeFile(abs, { signal: opts.signal, ffprobe: opts.ffprobe });
  } catch (e) {
    const err = toAppError(e, 'media');
    if (err.kind === 'cancelled' || opts.signal?.aborted) throw err;
    const away = fileWentAway(db, row);
    if (away) throw away;
    assertSameFile(db, clipId, row.fingerprint);
    setClipFailure(db, clipId, 'error', err.kind, err.message);
    return 'error';
  }
  const status = writeProbe(db, row, outcome);
  opts.onProgress?.(1);
  return status;
}

/** Stores a probe result; returns the clip's new stored status. */
export function writeProbe(db: CatalogDb, row: ClipRow, outcome: ProbeOutcome): ClipStatus {
  const { info } = outcome;
  const verdict = verdictFor(info);
  return db.transaction(() => {
    assertSameFile(db, row.id, row.fingerprint);
    // Shot detection counts frames exactly; the probe's count only stands in until it has run.
    const frameCount = row.shots_at !== null && row.frame_count !== null ? row.frame_count : info.frameCount;
    return applyClipEvent(db, row.id, { type: 'probed', verdict: verdict.status }, {
      status_reason: verdict.reason,
      error_kind: verdict.errorKind,
      container: info.container,
      video_codec: info.videoCodec,
      audio_codec: info.audioCodec,
      duration_s: info.durationS,
      fps: info.fps,
      vfr: info.hasVideo ? (info.vfr ? 1 : 0) : null,
      width: info.width,
      height: info.height,
      rotation: info.hasVideo ? info.rotation : null,
      audio_channels: info.audioChannels,
      audio_rate: info.audioRate === null ? null : Math.round(info.audioRate),
      audio_layout: JSON.stringify(info.audioLayout),
      reel_name: info.reelName,
      timecode: info.timecode,
      bit_rate: info.bitRate === null ? null : Math.round(info.bitRate),
      frame_count: frameCount,
      probe_json: JSON.stringify(outcome.raw),
      probed_at: now(),
    }).status;
  })();
}

/** The file's content changed: new identity, metadata and derived rows are stale. */
export function resetClipContent(db: CatalogDb, clipId: number, file: { size: number; mtimeMs: number; fingerprint: string | null }): void {
  db.transaction(() => {
    db.prepare('DELETE FROM thumbnails WHERE clip_id = ?').run(clipId);
    db.prepare('DELETE FROM shots WHERE clip_id = ?').run(clipId);
    const cleared = ['container', 'video_codec', 'audio_codec', 'duration_s', 'fps', 'vfr', 'width', 'height', 'rotation', 'audio_channels', 'audio_rate', 'audio_layout', 'reel_name', 'timecode', 'bit_rate', 'frame_count', 'probe_json', 'probed_at'];
    applyClipEvent(db, clipId, { type: 'contentChanged', empty: file.size === 0 }, {
      ...Object.fromEntries(cleared.map((c) => [c, null])),
      size_bytes: file.size,
      mtime_ms: file.mtimeMs,
      fingerprint: file.fingerprint,
      status_reason: file.size === 0 ? 'empty file (0 bytes)' : null,
      error_kind: file.size === 0 ? 'media' : null,
      missing_at: null,
    });
  })();
}

const TRUNCATED_NOTE = 'file ends early';

/**
 * A file cut short after its index (an interrupted copy of a "fast start" MP4) probes with its full
 * duration but decodes only its beginning: say so on the card instead of failing it.
 */
export function truncationNote(ptsTimes: readonly number[], durationS: number | null): string | null {
  if (!durationS || ptsTimes.length === 0) return null;
  const n = ptsTimes.length;
  const step = n > 1 ? ptsTimes[n - 1]! - ptsTimes[n - 2]! : 0;
  const decodedEnd = ptsTimes[n - 1]! + step;
  if (durationS - decodedEnd < Math.max(0.5, durationS * 0.1)) return null;
  return `${TRUNCATED_NOTE}: only ${decodedEnd.toFixed(1)} s of ${durationS.toFixed(1)} s decode (truncated or damaged copy?)`;
}

/** Replaces the note starting with `prefix` in a '; '-joined reason (or removes it when note is null). */
function withNote(reason: string | null, prefix: string, note: string | null): string | null {
  const parts = (reason ?? '').split('; ').filter((p) => p && !p.startsWith(prefix));
  if (note) parts.push(note);
  return parts.length ? parts.join('; ') : null;
}

/**
 * A file ffmpeg cannot decode becomes status error with the reason, whichever stage decoded it;
 * the error is rethrown for the caller's bookkeeping. A file that went away meanwhile is waited
 * for instead (`unplugged`).
 */
export async function recordMediaFailure<T>(db: CatalogDb, row: ClipRow, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const err = toAppError(e, 'media');
    if (signal?.aborted) throw err;
    const away = fileWentAway(db, row);
    if (away) throw away;
    if (err.kind === 'media' && NO_SPACE.test(err.message)) throw new AppError('disk_full', err.message, { cause: e });
    if (err.kind === 'media') {
      const cur = db.prepare('SELECT fingerprint FROM clips WHERE id = ?').get(row.id) as { fingerprint: string | null } | undefined;
      if (cur && cur.fingerprint === row.fingerprint) setClipFailure(db, row.id, 'error', 'media', err.message);
    }
    throw err;
  }
}

function requireFootage(row: ClipRow): void {
  if (row.status !== 'probed' && row.status !== 'done') {
    throw new AppError('invalid', `clip ${row.id} is ${row.status}: probe it first (only footage has shots)`);
  }
}

/**
 * Stores what shot detection found in the clip's decode (shot-detector.ts documents the method):
 * the shots, the exact frame count, and a note on the card when the file decodes short of its
 * duration. Detecting again on the same file keeps the shot rows (and what hangs off them:
 * segments, embeddings, tags) when the boundaries come out the same; otherwise replaces them.
 */
export function saveDetectedShots(db: CatalogDb, row: ClipRow, detection: Pick<ShotDetection, 'shots' | 'frames' | 'ptsTimes'>): void {
  const reason = withNote(row.status_reason, TRUNCATED_NOTE, truncationNote(detection.ptsTimes, row.duration_s));
  db.transaction(() => {
    assertSameFile(db, row.id, row.fingerprint);
    const same = replaceShots(db, row.id, detection.shots);
    applyClipEvent(db, row.id, { type: 'shotsDetected', sameShots: same }, { frame_count: detection.frames, status_reason: reason });
  })();
}

/**
 * The one writer of a clip's shot rows: keeps them (and the segments, embeddings and tags hanging
 * off them) when the boundaries are the frames they were; otherwise replaces them with their
 * per-shot posters. Returns whether they were the same. Call inside the caller's transaction.
 */
/** A shot as stored: frames may be unknown (a clip the service analysed from its URL). */
export type ShotRowInput = Pick<DetectedShot, 'idx' | 'startS' | 'endS'> & {
  startFrame: number | null;
  endFrame: number | null;
  cutScore: number | null;
  transition?: DetectedShot['transition'];
};

export function replaceShots(db: CatalogDb, clipId: number, shots: readonly ShotRowInput[]): boolean {
  const old = db.prepare('SELECT id, idx, start_frame, end_frame FROM shots WHERE clip_id = ? ORDER BY idx').all(clipId) as {
    id: number;
    idx: number;
    start_frame: number | null;
    end_frame: number | null;
  }[];
  const same = old.length === shots.length && old.every((o, i) => o.start_frame === shots[i]!.startFrame && o.end_frame === shots[i]!.endFrame);
  if (same) {
    const upd = db.prepare(
      'UPDATE shots SET start_s = ?, end_s = ?, cut_score = ?, transition_kind = ?, transition_start_s = ?, transition_end_s = ? WHERE id = ?',
    );
    shots.forEach((s, i) => upd.run(s.startS, s.endS, s.cutScore, s.transition?.kind ?? null, s.transition?.startS ?? null, s.transition?.endS ?? null, old[i]!.id));
  } else {
    // Per-shot posters go with their shots; clip-level images (the preview lane's poster, the
    // filmstrip) stay, so the card keeps its picture until the analysis stage replaces them.
    db.prepare('DELETE FROM thumbnails WHERE clip_id = ? AND shot_id IS NOT NULL').run(clipId);
    db.prepare('DELETE FROM shots WHERE clip_id = ?').run(clipId);
    const ins = db.prepare(
      'INSERT INTO shots (clip_id, idx, start_s, end_s, start_frame, end_frame, cut_score, transition_kind, transition_start_s, transition_end_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const s of shots) ins.run(clipId, s.idx, s.startS, s.endS, s.startFrame, s.endFrame, s.cutScore, s.transition?.kind ?? null, s.transition?.startS ?? null, s.transition?.endS ?? null);
  }
  return same;
}

/**
 * The preview lane's poster: one keyframe near the middle of the clip (ffmpeg seeks to the keyframe
 * before that time and decodes just it), so every card of a dropped card shows a picture within
 * seconds, long before shots and per-shot posters exist. Skipped when the clip has posters already;
 * the analysis stage replaces it (and deletes its folder) with the per-shot set.
 */
export async function makeQuickPoster(db: CatalogDb, clipId: number, opts: StageOptions & { cacheDir: string }): Promise<boolean> {
  const row = getClipRow(db, clipId);
  requireFootage(row);
  const has = db.prepare("SELECT 1 FROM thumbnails WHERE clip_id = ? AND kind = 'poster' LIMIT 1").get(clipId);
  if (has) return false;
  const { abs } = requireFile(db, row);
  const root = thumbnailDir(opts.cacheDir);
  const outDir = path.join(root, String(clipId), `quick-${now().toString(36)}`);
  const atS = row.duration_s && row.duration_s > 0 ? row.duration_s / 2 : 0;
  let img;
  try {
    img = await recordMediaFailure(db, row, opts.signal, () => renderKeyframePoster(abs, atS, outDir, { signal: opts.signal, ffmpeg: opts.ffmpeg }));
  } catch (e) {
    fs.rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
  const rel = path.relative(root, img.file).split(path.sep).join('/');
  db.transaction(() => {
    assertSameFile(db, clipId, row.fingerprint);
    if (db.prepare("SELECT 1 FROM thumbnails WHERE clip_id = ? AND kind = 'poster' LIMIT 1").get(clipId)) return;
    db.prepare('INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height, frames, time_s) VALUES (?, NULL, ?, ?, ?, ?, NULL, ?)').run(
      clipId,
      'poster',
      rel,
      img.width,
      img.height,
      img.timeS,
    );
  })();
  opts.onProgress?.(1);
  return true;
}

/** Evenly spaced frame indices for the filmstrip, each in the middle of its slice of the clip. */
export function filmstripFrames(frameCount: number, tiles = FILMSTRIP_FRAMES): number[] {
  const n = Math.max(1, Math.min(tiles, frameCount));
  return Array.from({ length: n }, (_, k) => Math.min(frameCount - 1, Math.floor(((k + 0.5) * frameCount) / n)));
}

/**
 * Poster candidates per second of footage: a shot's poster is the candidate nearest its middle,
 * so at most a quarter second off it.
 */
const POSTER_CANDIDATE_FPS = 2;

/** Where and what the thumbnails of a clip will be: made by the clip's decode, saved by saveThumbnails. */
export interface ThumbnailPlan {
  clipId: number;
  fingerprint: string | null;
  request: StillsRequest;
  clipDir: string;
  version: string;
}

/**
 * A poster per shot (~320 px wide, near its middle) and one filmstrip sprite per clip (12 tiles
 * of 160 px), into a fresh folder of the thumbnail cache: the previous set stays until the new
 * rows are committed, so the UI never points at a file that is gone. The filmstrip's frames come
 * from the clip's frame count (the probe's until shot detection has counted them); a clip whose
 * count is unknown gets no filmstrip.
 */
export function planThumbnails(db: CatalogDb, clipId: number, cacheDir: string): ThumbnailPlan {
  const row = getClipRow(db, clipId);
  requireFootage(row);
  const frameCount = row.frame_count ?? 0;
  const clipDir = path.join(thumbnailDir(cacheDir), String(clipId));
  const version = `${now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    clipId,
    fingerprint: row.fingerprint,
    request: { posterFps: POSTER_CANDIDATE_FPS, stripFrames: frameCount > 0 ? filmstripFrames(frameCount) : [], outDir: path.join(clipDir, version) },
    clipDir,
    version,
  };
}

/** The decode that was to make them failed or was cancelled: nothing of the new set stays. */
export function discardThumbnails(plan: ThumbnailPlan): void {
  fs.rmSync(plan.request.outDir, { recursive: true, force: true });
}

/** Commits what the decode wrote for `plan` (rendered.posters[i] stands for shotIds[i]), then removes the clip's older sets. */
export function saveThumbnails(db: CatalogDb, plan: ThumbnailPlan, rendered: RenderedStills, shotIds: ReadonlyArray<number | null>): void {
  const root = path.dirname(plan.clipDir);
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const { clipId } = plan;
  try {
    db.transaction(() => {
      assertSameFile(db, clipId, plan.fingerprint);
      db.prepare('DELETE FROM thumbnails WHERE clip_id = ?').run(clipId);
      const ins = db.prepare(
        'INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height, frames, time_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      rendered.posters.forEach((img, i) => {
        if (img) ins.run(clipId, shotIds[i] ?? null, 'poster', rel(img.file), img.width, img.height, null, img.timeS);
      });
      if (rendered.strip) {
        const s = rendered.strip;
        ins.run(clipId, null, 'filmstrip', rel(s.file), s.tileWidth, s.tileHeight, s.frames, null);
      }
      applyClipEvent(db, clipId, { type: 'thumbnailsMade' });
    })();
  } catch (e) {
    discardThumbnails(plan);
    throw e;
  }
  for (const name of fs.readdirSync(plan.clipDir)) {
    if (name !== plan.version) fs.rmSync(path.join(plan.clipDir, name), { recursive: true, force: true });
  }
}
