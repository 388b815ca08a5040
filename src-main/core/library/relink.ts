import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { RelinkResult } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { joinOnVolume, relativeOnVolume } from './clip-paths';
import { fingerprintFile } from './fingerprint';
import { upsertVolume } from './volume-store';
import type { VolumeResolver } from './volumes/volume-resolver';
import { mergeMarks } from '../marks/marks-repository';

export interface RelinkOptions {
  resolver: VolumeResolver;
  fingerprint?: (file: string, size: number) => Promise<string>;
}

interface ClipUnder {
  id: number;
  rel_path: string;
  size_bytes: number;
  fingerprint: string | null;
}

/** Catalogued clips at or under an absolute path, on whichever known volume holds it (connected or not). */
function clipsUnder(db: CatalogDb, fromPath: string): { clips: ClipUnder[]; relBase: string } {
  const vols = db.prepare('SELECT id, mount_path FROM volumes').all() as { id: number; mount_path: string }[];
  const hits = vols
    .map((v) => ({ ...v, rel: relativeOnVolume(v.mount_path, fromPath) }))
    .filter((v): v is { id: number; mount_path: string; rel: string } => v.rel !== null)
    .sort((a, b) => b.mount_path.length - a.mount_path.length);
  const clips: ClipUnder[] = [];
  let relBase = '';
  for (const v of hits.filter((h) => h.mount_path.length === hits[0]!.mount_path.length)) {
    relBase = v.rel;
    const rows = (
      v.rel === ''
        ? db.prepare('SELECT id, rel_path, size_bytes, fingerprint FROM clips WHERE volume_id = ?').all(v.id)
        : db
            .prepare('SELECT id, rel_path, size_bytes, fingerprint FROM clips WHERE volume_id = ? AND (rel_path = ? OR (rel_path >= ? AND rel_path < ?))')
            .all(v.id, v.rel, `${v.rel}/`, `${v.rel}0`)
    ) as ClipUnder[];
    clips.push(...rows);
  }
  return { clips, relBase };
}

/**
 * Points the clips of a moved folder at its new place. Each clip's path relative to `fromPath` is
 * looked up under `toPath`; it is relinked only when the file there has the same size and
 * fingerprint, so a different file that happens to share a name is never adopted. Shots, thumbnails
 * and everything attached to the clip stay. If the new place had already been imported, that
 * duplicate row (same content, no history) gives way to the relinked clip.
 */
export async function relinkFolder(db: CatalogDb, fromPath: string, toPath: string, opts: RelinkOptions): Promise<RelinkResult> {
  let toReal: string;
  try {
    toReal = await fsp.realpath(path.resolve(toPath));
  } catch {
    throw new AppError('not_found', `new location does not exist: ${toPath}`);
  }
  const from = path.resolve(fromPath);
  const { clips, relBase } = clipsUnder(db, from);
  if (clips.length === 0) throw new AppError('not_found', `no catalogued clips under ${fromPath}`);
  const fingerprint = opts.fingerprint ?? fingerprintFile;
  const result: RelinkResult = { relinked: 0, notFound: 0, mismatched: 0, examples: [] };
  const example = (p: string, outcome: 'not_found' | 'mismatched') => {
    if (result.examples.length < 50) result.examples.push({ path: p, outcome });
  };
  opts.resolver.refresh();
  const byTarget = db.prepare('SELECT id, fingerprint FROM clips WHERE volume_id = ? AND rel_path = ?');
  const move = db.prepare('UPDATE clips SET volume_id = ?, rel_path = ?, file_name = ?, mtime_ms = ?, missing_at = NULL, updated_at = ? WHERE id = ?');
  for (const clip of clips) {
    const rest = clip.rel_path === relBase ? '' : clip.rel_path.slice(relBase === '' ? 0 : relBase.length + 1);
    const target = rest ? joinOnVolume(toReal, rest) : toReal;
    let st;
    try {
      st = await fsp.stat(target);
    } catch {
      result.notFound++;
      example(target, 'not_found');
      continue;
    }
    if (!st.isFile() || st.size !== clip.size_bytes) {
      result.mismatched++;
      example(target, 'mismatched');
      continue;
    }
    const fp = st.size === 0 ? null : await fingerprint(target, st.size).catch(() => undefined);
    if (fp === undefined || (clip.fingerprint !== null && fp !== clip.fingerprint)) {
      result.mismatched++;
      example(target, 'mismatched');
      continue;
    }
    const info = opts.resolver.volumeFor(target);
    const volumeId = upsertVolume(db, info);
    const rel = relativeOnVolume(info.mountPath, target) ?? target.split(path.sep).join('/');
    db.transaction(() => {
      const dup = byTarget.get(volumeId, rel) as { id: number; fingerprint: string | null } | undefined;
      if (dup && dup.id !== clip.id) {
        mergeMarks(db, dup.id, clip.id);
        db.prepare('DELETE FROM clips WHERE id = ?').run(dup.id);
      }
      move.run(volumeId, rel, path.basename(target), Math.floor(st.mtimeMs), Date.now(), clip.id);
    })();
    result.relinked++;
  }
  return result;
}
