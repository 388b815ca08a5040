import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { RelinkResult } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { mergeMarks } from '../marks/marks-repository';
import { joinOnVolume, relativeOnVolume } from './clip-paths';
import { moveClip, removeClip } from './clips-repository';
import { clipAtPath, clipsUnder } from './clip-place-store';
import { fingerprintFile } from './fingerprint';
import { upsertVolume } from './volume-store';
import type { VolumeResolver } from './volumes/volume-resolver';

export interface RelinkOptions {
  resolver: VolumeResolver;
  fingerprint?: (file: string, size: number) => Promise<string>;
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
  const { clips, rel: relBase } = clipsUnder(db, from);
  if (clips.length === 0) throw new AppError('not_found', `no catalogued clips under ${fromPath}`);
  const fingerprint = opts.fingerprint ?? fingerprintFile;
  const result: RelinkResult = { relinked: 0, notFound: 0, mismatched: 0, examples: [] };
  const example = (p: string, outcome: 'not_found' | 'mismatched') => {
    if (result.examples.length < 50) result.examples.push({ path: p, outcome });
  };
  opts.resolver.refresh();
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
      const dup = clipAtPath(db, volumeId, rel);
      if (dup && dup.id !== clip.id) {
        mergeMarks(db, dup.id, clip.id);
        removeClip(db, dup.id);
      }
      moveClip(db, clip.id, { volumeId, relPath: rel, fileName: path.basename(target), mtimeMs: Math.floor(st.mtimeMs) });
    })();
    result.relinked++;
  }
  return result;
}
