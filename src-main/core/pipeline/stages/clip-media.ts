import fs from 'node:fs';
import path from 'node:path';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { ClipStatus } from '../../../../src-shared/contract/library';
import type { CatalogDb } from '../../catalog/open-catalog';
import { thumbnailDir } from '../../library/clip-paths';
import { clipWhere, fileWentAway, reachClipFile } from '../../library/clip-reach';
import { assertSameFile, fingerprintOf, getClipRow, type ClipRow } from '../../library/clip-store';
import { applyClipEvent, EMPTY_FILE, recordClipFailure, recordProbe, recordSameContent, resetClipContent } from '../../library/clips-repository';
import { fingerprintFile } from '../../library/fingerprint';
import { replaceShots } from '../../library/shot-store';
import { addClipPoster, hasPoster, replaceThumbnails } from '../../library/thumbnail-store';
import { probeFile, type ProbeOutcome } from '../../media/probe';
import type { ShotDetection } from '../../media/shot-detector';
import { renderKeyframePoster, type RenderedStills, type StillsRequest } from '../../media/stills';

/**
 * What the media stages (probe, poster, analysis; pipeline/stages/media-stages.ts and
 * analysis-stage.ts) do with a clip's file: read it with ffprobe, make its keyframe poster, plan
 * and keep the thumbnails its analysis decode renders, keep the shots that decode found, and tell a
 * file that went away (its drive unplugged: the job waits) from one that cannot be read (the clip
 * fails with ffmpeg's reason). What they find is written through the library's stores; a stage
 * refuses to write results if the file changed while it worked.
 */

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

/** ffmpeg's words when the disk it writes to (thumbnails, the filmstrip) is full: the disk's fault, not the clip's. */
const NO_SPACE = /No space left on device|Disk quota exceeded/i;

/**
 * The file must be reachable: an offline volume or a vanished file is waited for (`unplugged`:
 * the job looks again by itself, or when the Library finds the file back), never turned into a
 * clip error.
 */
function requireFile(db: CatalogDb, row: ClipRow): { abs: string; st: fs.Stats } {
  const where = clipWhere(row);
  return { abs: where.path, st: reachClipFile(db, where) };
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
    else recordSameContent(db, clipId, { size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
    row = getClipRow(db, clipId);
  }
  if (row.size_bytes === 0) {
    recordClipFailure(db, clipId, 'error', EMPTY_FILE.kind, EMPTY_FILE.reason);
    return 'error';
  }
  let outcome: ProbeOutcome;
  try {
    outcome = await probeFile(abs, { signal: opts.signal, ffprobe: opts.ffprobe });
  } catch (e) {
    const err = toAppError(e, 'media');
    if (err.kind === 'cancelled' || opts.signal?.aborted) throw err;
    const away = fileWentAway(db, clipWhere(row));
    if (away) throw away;
    assertSameFile(db, clipId, row.fingerprint);
    recordClipFailure(db, clipId, 'error', err.kind, err.message);
    return 'error';
  }
  const status = recordProbe(db, row, outcome);
  opts.onProgress?.(1);
  return status;
}

const TRUNCATED_NOTE = 'file ends early';

/**
 * A file cut short after its index (an interrupted copy of a "fast start" MP4) probes with its full
 * duration but decodes only its beginning: where its picture ends, or null when it decodes whole.
 */
function decodedEnd(ptsTimes: readonly number[], durationS: number | null): number | null {
  if (!durationS || ptsTimes.length === 0) return null;
  const n = ptsTimes.length;
  const step = n > 1 ? ptsTimes[n - 1]! - ptsTimes[n - 2]! : 0;
  const end = ptsTimes[n - 1]! + step;
  return durationS - end < Math.max(0.5, durationS * 0.1) ? null : end;
}

/** The card's words for it: a Problem the editor can judge, not a failure (what was read stays searchable). */
function truncationNote(end: number | null, durationS: number | null): string | null {
  if (end === null || !durationS) return null;
  return `${TRUNCATED_NOTE}: plays ${end.toFixed(1)} s of ${durationS.toFixed(1)} s (truncated or damaged copy?)`;
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
    const away = fileWentAway(db, clipWhere(row));
    if (away) throw away;
    if (err.kind === 'media' && NO_SPACE.test(err.message)) throw new AppError('disk_full', err.message, { cause: e });
    if (err.kind === 'media' && fingerprintOf(db, row.id) === row.fingerprint) recordClipFailure(db, row.id, 'error', 'media', err.message);
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
  const end = decodedEnd(detection.ptsTimes, row.duration_s);
  const reason = withNote(row.status_reason, TRUNCATED_NOTE, truncationNote(end, row.duration_s));
  db.transaction(() => {
    assertSameFile(db, row.id, row.fingerprint);
    const same = replaceShots(db, row.id, detection.shots);
    applyClipEvent(db, row.id, { type: 'shotsDetected', sameShots: same }, { frame_count: detection.frames, status_reason: reason, decoded_s: end });
  })();
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
  if (hasPoster(db, clipId)) return false;
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
    if (hasPoster(db, clipId)) return;
    addClipPoster(db, clipId, { path: rel, width: img.width, height: img.height, timeS: img.timeS });
  })();
  opts.onProgress?.(1);
  return true;
}

/** Evenly spaced frame indices for the filmstrip, each in the middle of its slice of the clip. */
function filmstripFrames(frameCount: number, tiles = FILMSTRIP_FRAMES): number[] {
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

/**
 * Pictures another seat of a team library made of this clip (team/syncs/clip-sharing.ts): written as a
 * new set in the clip's folder and committed as the decode's would be, posters onto this catalog's
 * shot ids by shot index.
 */
export function saveCopiedThumbnails(
  db: CatalogDb,
  clipId: number,
  cacheDir: string,
  pictures: ReadonlyArray<{ shotIdx: number | null; kind: 'poster' | 'filmstrip'; fileName: string; width: number | null; height: number | null; frames: number | null; timeS: number | null; image: Buffer }>,
  shotIdByIdx: ReadonlyMap<number, number>,
): void {
  const plan = planThumbnails(db, clipId, cacheDir);
  fs.mkdirSync(plan.request.outDir, { recursive: true });
  const write = (p: (typeof pictures)[number]) => {
    const file = path.join(plan.request.outDir, path.basename(p.fileName));
    fs.writeFileSync(file, p.image);
    return { file, width: p.width ?? 0, height: p.height ?? 0 };
  };
  const posters = pictures.filter((p) => p.kind === 'poster' && p.shotIdx !== null && shotIdByIdx.has(p.shotIdx));
  const strip = pictures.find((p) => p.kind === 'filmstrip');
  const rendered: RenderedStills = {
    posters: posters.map((p) => ({ ...write(p), timeS: p.timeS ?? 0 })),
    strip: strip ? { ...write(strip), frames: strip.frames ?? 1, tileWidth: strip.width ?? 0, tileHeight: strip.height ?? 0 } : null,
  };
  saveThumbnails(db, plan, rendered, posters.map((p) => shotIdByIdx.get(p.shotIdx!)!));
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
      const s = rendered.strip;
      replaceThumbnails(db, clipId, {
        posters: rendered.posters.flatMap((img, i) => (img ? [{ shotId: shotIds[i] ?? null, path: rel(img.file), width: img.width, height: img.height, timeS: img.timeS }] : [])),
        strip: s ? { path: rel(s.file), width: s.tileWidth, height: s.tileHeight, frames: s.frames } : null,
      });
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
