import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';

/**
 * The few facts about a catalogued clip that a collection upload needs, read straight from the
 * library's tables (clips on volumes) so this module does not depend on the library's code.
 */
export interface ClipFile {
  clipId: number;
  path: string;
  fileName: string;
  sizeBytes: number;
  mtimeMs: number;
  container: string | null;
  durationS: number | null;
  fingerprint: string | null;
}

interface ClipRow {
  id: number;
  mount: string;
  rel: string;
  file_name: string;
  size_bytes: number;
  mtime_ms: number;
  container: string | null;
  duration_s: number | null;
  fingerprint: string | null;
  online: number;
  missing_at: number | null;
}

function absolutePath(mount: string, rel: string): string {
  return path.join(mount, ...rel.split('/'));
}

export function createClipFiles(db: CatalogDb) {
  const byId = db.prepare(`
    SELECT c.id, v.mount_path AS mount, c.rel_path AS rel, c.file_name, c.size_bytes, c.mtime_ms, c.container,
           c.duration_s, c.fingerprint, v.online, c.missing_at
    FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id = ?`);
  const all = db.prepare(`SELECT c.id, v.mount_path AS mount, c.rel_path AS rel FROM clips c JOIN volumes v ON v.id = c.volume_id`);
  const names = db.prepare(`SELECT id, file_name FROM clips WHERE id IN (SELECT value FROM json_each(?))`);

  return {
    /** The clip as it is on disk now; io when its drive is offline or the file is gone. */
    resolve(clipId: number): ClipFile {
      const r = byId.get(clipId) as ClipRow | undefined;
      if (!r) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
      const p = absolutePath(r.mount, r.rel);
      if (!r.online) throw new AppError('io', `${r.file_name}: its drive is offline`);
      let st: fs.Stats;
      try {
        st = fs.statSync(p);
      } catch {
        throw new AppError('io', `${r.file_name}: file not found at ${p}`);
      }
      return {
        clipId: r.id,
        path: p,
        fileName: r.file_name,
        // The file on disk is what gets sent: trust its size over the catalog's.
        sizeBytes: st.size,
        mtimeMs: st.mtimeMs,
        container: r.container,
        durationS: r.duration_s,
        fingerprint: r.fingerprint,
      };
    },

    exists(clipIds: readonly number[]): Map<number, string> {
      const rows = names.all(JSON.stringify(clipIds)) as { id: number; file_name: string }[];
      return new Map(rows.map((r) => [r.id, r.file_name]));
    },

    /** Catalogued clips whose file lies under the folder (any depth), in id order. */
    underFolder(folder: string): number[] {
      const root = path.resolve(folder);
      const prefix = root.endsWith(path.sep) ? root : root + path.sep;
      const rows = all.all() as { id: number; mount: string; rel: string }[];
      return rows
        .filter((r) => absolutePath(r.mount, r.rel).startsWith(prefix))
        .map((r) => r.id)
        .sort((a, b) => a - b);
    },
  };
}

export type ClipFiles = ReturnType<typeof createClipFiles>;
