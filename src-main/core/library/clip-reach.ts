import fs from 'node:fs';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipAbsPath, type ClipPath, type ClipRow } from './clip-store';
import { clearClipMissing, markClipMissing } from './clips-repository';
import { teamShareWhy } from './team-share-entries';
import { isTeamShareKey } from './volume-store';

/**
 * Whether a clip's file can be reached now, for everything that reads it (the pipeline's media and
 * upload stages, collection uploads). A drive that is not connected or a file gone from its path
 * (the drive unplugged under it, a folder renamed) is `unplugged`: the work waits for it and the
 * clip is marked missing, so the Library shows it and wakes the work when it finds the file back.
 * Any other failure to read the file is `io`.
 */

/** What reachability needs of a clip: pathOf's answer, or clipWhere of a clip row. */
export type ClipWhere = Pick<ClipPath, 'clipId' | 'fileName' | 'path' | 'relPath' | 'online' | 'teamShare' | 'volumeLabel' | 'missing'>;

/** The reachability facts of a clip row, in pathOf's words. */
export function clipWhere(row: ClipRow): ClipWhere {
  return {
    clipId: row.id,
    fileName: row.file_name,
    path: clipAbsPath(row),
    relPath: row.rel_path,
    online: row.online === 1,
    teamShare: isTeamShareKey(row.volume_key),
    volumeLabel: row.volume_label ?? row.mount_path,
    missing: row.missing_at !== null,
  };
}

/** Why a clip whose drive is not connected cannot be read: the drive's name, or the team's share and the path on it. */
export function awayWhy(clip: ClipWhere): string {
  return clip.teamShare ? teamShareWhy(clip.fileName, clip.volumeLabel, clip.relPath) : `volume "${clip.volumeLabel}" is not connected`;
}

/** Errors of a file whose path is gone (the drive or a folder above it moved away), not of its content. */
const AWAY = new Set(['ENOENT', 'ENOTDIR', 'ENODEV', 'ENXIO', 'EIO']);

/** The clip's file as it is now; throws `unplugged` when its drive or the file is away, `io` when it cannot be read. */
export function reachClipFile(db: CatalogDb, clip: ClipWhere): fs.Stats {
  if (!clip.online) throw new AppError('unplugged', awayWhy(clip));
  try {
    const st = fs.statSync(clip.path);
    if (clip.missing) clearClipMissing(db, clip.clipId);
    return st;
  } catch (e) {
    const away = awayError(db, clip, e);
    if (away) throw away;
    throw new AppError('io', `cannot read ${clip.path}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * After a tool failed on a clip's file: the file going away under it is not a fault of the file.
 * Returns the `unplugged` error to throw instead, or null when the file is still there.
 */
export function fileWentAway(db: CatalogDb, clip: ClipWhere): AppError | null {
  try {
    fs.statSync(clip.path);
    return null;
  } catch (e) {
    return awayError(db, clip, e);
  }
}

/** The `unplugged` error for a stat failure that means the file is away (marked missing), else null. */
function awayError(db: CatalogDb, clip: ClipWhere, e: unknown): AppError | null {
  if (!AWAY.has((e as NodeJS.ErrnoException).code ?? '')) return null;
  markClipMissing(db, clip.clipId);
  return new AppError('unplugged', `file is no longer at ${clip.path}: waiting for it to come back`, { cause: e });
}
