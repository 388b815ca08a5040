import fs from 'node:fs';
import path from 'node:path';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { ImportIssue, ImportProgress, ImportSummary } from '../../../../src-shared/contract/library';
import type { CatalogDb } from '../../catalog/open-catalog';
import { joinOnVolume, relativeOnVolume } from '../clip-paths';
import { catalogueClip, clearClipMissing, EMPTY_FILE, markClipMissing, moveClip, recordSameContent, resetClipContent } from '../clips-repository';
import { clipAtPath, clipsOnVolumeUnder, clipsWithContent, type ClipAtPath } from '../clip-place-store';
import { fingerprintFile } from '../fingerprint';
import { finishImport, startImport } from './import-store';
import { mapLimit } from './map-limit';
import { scanTree, type ScanIssue, type ScannedFile } from './scan-tree';
import { upsertVolume } from '../volume-store';
import type { VolumeInfo, VolumeResolver } from '../volumes/volume-resolver';

export interface ImportOptions {
  resolver: VolumeResolver;
  signal?: AbortSignal;
  /** Test seam: how a file's fingerprint is computed. */
  fingerprint?: (file: string, size: number) => Promise<string>;
  onProgress?: (p: ImportProgress) => void;
  /** Who asked (default the editor): the team library's arrivals are named as such. */
  origin?: ImportSummary['origin'];
}

export interface ImportResult {
  summary: ImportSummary;
  /**
   * Clips the pipeline must take from its first stage (the probe): new and changed files, and
   * unchanged ones whose probe, poster or media never finished (an import or a run cut short).
   */
  needMedia: number[];
  /** Every clip whose row this import created or changed. */
  touched: number[];
}

/** How many issues one import keeps in the catalog, and how many the call returns. */
const STORED_ISSUES = 2000;
const RETURNED_ISSUES = 300;
const BATCH = 500;

interface Located {
  file: ScannedFile;
  volumeId: number;
  rel: string;
}

/** Folders walked that are not inside another walked folder: their subtrees cover everything seen. */
function topDirs(dirs: readonly string[]): string[] {
  const sorted = [...dirs].sort();
  const out: string[] = [];
  for (const d of sorted) {
    const last = out.at(-1);
    if (last && (d === last || d.startsWith(last.endsWith(path.sep) ? last : last + path.sep))) continue;
    out.push(d);
  }
  return out;
}

function fileIssue(p: string, e: unknown): ScanIssue {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return { path: p, code: 'unreadable', reason: 'permission denied' };
  if (code === 'ENOENT') return { path: p, code: 'vanished', reason: 'disappeared while scanning' };
  return { path: p, code: 'error', reason: `could not be read: ${(e as Error).message}` };
}

/** The sentence for roots that do not exist, naming them (null when every root was there). */
function notFoundMessage(paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  const named = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '');
  return `Not found: ${named}. Check the spelling, or connect the drive it is on.`;
}

/**
 * Imports dropped files and folders: walk and catalogue. Probing is the pipeline's first stage,
 * so a drop of several hundred clips is in the Library in a second and every clip's probe and
 * poster are made by the one runner, clip after clip, before any clip is analysed.
 *
 * Incremental: a file already catalogued with the same size and modification time is only stat'ed
 * (not hashed, not probed). A changed one is re-fingerprinted and, when its content changed, reset
 * to `pending` for the pipeline to probe again; a new one whose
 * fingerprint matches a catalogued clip whose file is gone (or a team clip listed offline here) is
 * treated as that clip moved, so its shots, tags and embeddings stay. Catalogued files that vanished from the imported folders are
 * marked missing, never deleted. Rows are written in batched transactions.
 */
export async function importPaths(db: CatalogDb, roots: readonly string[], opts: ImportOptions): Promise<ImportResult> {
  const startedAt = Date.now();
  const origin = opts.origin ?? 'editor';
  const importId = startImport(db, roots, origin, startedAt);
  const progress = (phase: ImportProgress['phase'], done: number, total: number) => opts.onProgress?.({ importId, phase, done, total });
  const counts = { added: 0, updated: 0, unchanged: 0, relocated: 0, missing: 0, failed: 0 };
  const issues: ImportIssue[] = [];
  const touched = new Set<number>();
  const needMedia: number[] = [];
  let ignored = 0;
  let skipped = 0;

  const finish = (state: ImportSummary['state'], error: string | null): ImportSummary => {
    const finishedAt = Date.now();
    // The clips it catalogued, changed or handed over: the summary reads their verdicts later.
    finishImport(db, importId, { state, ...counts, skipped, ignored, error, finishedAt }, issues.slice(0, STORED_ISSUES), new Set([...touched, ...needMedia]));
    return {
      importId,
      state,
      origin,
      roots: [...roots],
      ...counts,
      skipped,
      ignored,
      // Every clip handed to the probe is still to be read as the import returns.
      reading: new Set(needMedia).size,
      issues: issues.slice(0, RETURNED_ISSUES),
      issuesTruncated: issues.length > RETURNED_ISSUES,
      error,
      startedAt,
      finishedAt,
    };
  };

  try {
    progress('scanning', 0, 0);
    const scan = await scanTree(roots, { signal: opts.signal, onProgress: (n) => progress('scanning', n, 0) });
    issues.push(...scan.issues);
    skipped = scan.issues.length;
    ignored = scan.ignored;
    const notFound = notFoundMessage(scan.notFound);
    // Nothing of what was asked exists: the import failed, naming the path (not "finished · 1 skipped").
    if (notFound && scan.notFound.length === roots.length) {
      const summary = finish('failed', notFound);
      progress('done', 0, 0);
      return { summary, needMedia, touched: [] };
    }

    // Volumes: one lookup per folder, one row per volume.
    opts.resolver.refresh();
    const volumeByDir = new Map<string, { id: number; info: VolumeInfo }>();
    const volumeOf = (p: string, isDir = false) => {
      const dir = isDir ? p : path.dirname(p);
      let v = volumeByDir.get(dir);
      if (!v) {
        const info = opts.resolver.volumeFor(dir);
        v = { id: upsertVolume(db, info, startedAt), info };
        volumeByDir.set(dir, v);
      }
      return v;
    };

    // Classify by size and mtime alone: unchanged files cost one indexed lookup.
    const seen = new Set<string>();
    const clearMissing: number[] = [];
    const needFingerprint: { loc: Located; existing: ClipAtPath | null; fp?: string }[] = [];
    for (const file of scan.files) {
      const v = volumeOf(file.path);
      const rel = relativeOnVolume(v.info.mountPath, file.path) ?? file.path.split(path.sep).join('/');
      seen.add(`${v.id}:${rel}`);
      const loc = { file, volumeId: v.id, rel };
      const existing = clipAtPath(db, v.id, rel);
      if (existing && existing.size_bytes === file.size && existing.mtime_ms === file.mtimeMs) {
        counts.unchanged++;
        if (existing.missing_at !== null) clearMissing.push(existing.id);
        if (existing.status === 'pending' || existing.status === 'probed') needMedia.push(existing.id);
      } else {
        needFingerprint.push({ loc, existing: existing ?? null });
      }
    }

    progress('cataloguing', 0, needFingerprint.length);
    const fingerprint = opts.fingerprint ?? fingerprintFile;
    let hashed = 0;
    await mapLimit(needFingerprint, 8, async (item) => {
      if (opts.signal?.aborted) throw new AppError('cancelled', 'import cancelled');
      try {
        item.fp = item.loc.file.size === 0 ? '' : await fingerprint(item.loc.file.path, item.loc.file.size);
      } catch (e) {
        issues.push(fileIssue(item.loc.file.path, e));
        skipped++;
      }
      if (++hashed % 200 === 0) progress('cataloguing', hashed, needFingerprint.length);
    });

    // A new path with the fingerprint of a clip whose file is gone: the file moved.
    const claimed = new Set<number>();
    const relocations: { id: number; loc: Located }[] = [];
    const inserts: { loc: Located; fp: string }[] = [];
    const changes: { id: number; loc: Located; fp: string }[] = [];
    const retouched: { existing: ClipAtPath; loc: Located }[] = [];
    for (const item of needFingerprint) {
      if (item.fp === undefined) continue;
      if (item.existing) {
        // Same bytes under a new date (touched, or copied back): keep everything, refresh the date.
        if (item.fp !== '' && item.fp === item.existing.fingerprint && item.loc.file.size === item.existing.size_bytes) {
          retouched.push({ existing: item.existing, loc: item.loc });
        } else changes.push({ id: item.existing.id, loc: item.loc, fp: item.fp });
        continue;
      }
      if (item.loc.file.size > 0) {
        // An offline entry of a team clip is the same clip whose file was elsewhere: importing a copy is its Relink.
        const moved = clipsWithContent(db, item.fp, item.loc.file.size).find((c) => !claimed.has(c.id) && (c.teamShare || (c.online && !fs.existsSync(c.path))));
        if (moved) {
          claimed.add(moved.id);
          relocations.push({ id: moved.id, loc: item.loc });
          continue;
        }
      }
      inserts.push({ loc: item.loc, fp: item.fp });
    }

    const now = Date.now();
    type Op = () => void;
    const ops: Op[] = [];
    for (const { loc, fp } of inserts) {
      ops.push(() => {
        const id = catalogueClip(
          db,
          { volumeId: loc.volumeId, relPath: loc.rel, fileName: path.basename(loc.file.path), sizeBytes: loc.file.size, mtimeMs: loc.file.mtimeMs, fingerprint: fp || null },
          now,
        );
        counts.added++;
        touched.add(id);
        if (loc.file.size === 0) {
          counts.failed++;
          issues.push({ path: loc.file.path, code: 'error', reason: EMPTY_FILE.reason });
        } else needMedia.push(id);
      });
    }
    for (const { id, loc, fp } of changes) {
      ops.push(() => {
        resetClipContent(db, id, { size: loc.file.size, mtimeMs: loc.file.mtimeMs, fingerprint: fp || null });
        counts.updated++;
        touched.add(id);
        if (loc.file.size === 0) {
          counts.failed++;
          issues.push({ path: loc.file.path, code: 'error', reason: EMPTY_FILE.reason });
        } else needMedia.push(id);
      });
    }
    for (const { id, loc } of relocations) {
      ops.push(() => {
        moveClip(db, id, { volumeId: loc.volumeId, relPath: loc.rel, fileName: path.basename(loc.file.path), mtimeMs: loc.file.mtimeMs }, now);
        counts.relocated++;
        touched.add(id);
      });
    }
    for (const { existing, loc } of retouched) {
      ops.push(() => {
        recordSameContent(db, existing.id, { size: loc.file.size, mtimeMs: loc.file.mtimeMs }, now);
        counts.unchanged++;
        touched.add(existing.id);
        if (existing.status === 'pending' || existing.status === 'probed') needMedia.push(existing.id);
      });
    }
    for (const id of clearMissing) {
      ops.push(() => {
        clearClipMissing(db, id, now);
        touched.add(id);
      });
    }
    for (let i = 0; i < ops.length; i += BATCH) {
      db.transaction(() => ops.slice(i, i + BATCH).forEach((op) => op()))();
      progress('cataloguing', Math.min(i + BATCH, ops.length), ops.length);
    }

    // Catalogued files under the walked folders that were not seen: missing (unless under a folder we could not read).
    const blocked = scan.issues.map((i) => i.path);
    db.transaction(() => {
      for (const dir of topDirs(scan.dirs)) {
        const v = volumeOf(dir, true);
        const rel = relativeOnVolume(v.info.mountPath, dir);
        if (rel === null) continue;
        for (const r of clipsOnVolumeUnder(db, v.id, rel)) {
          if (r.missing_at !== null || seen.has(`${v.id}:${r.rel_path}`) || claimed.has(r.id)) continue;
          const abs = joinOnVolume(v.info.mountPath, r.rel_path);
          if (blocked.some((b) => abs === b || abs.startsWith(b + path.sep))) continue;
          if (fs.existsSync(abs)) continue; // hidden now, or reached only through a skipped link
          markClipMissing(db, r.id, now);
          counts.missing++;
          touched.add(r.id);
        }
      }
    })();

    const summary = finish('done', notFound);
    progress('done', ops.length, ops.length);
    return { summary, needMedia, touched: [...touched] };
  } catch (e) {
    const err = toAppError(e);
    finish(err.kind === 'cancelled' ? 'cancelled' : 'failed', err.message);
    throw err;
  }
}
