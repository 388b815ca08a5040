import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../src-shared/errors';
import { hiddenKind, isVideoPath } from './video-extensions';

export type SkipCode =
  | 'hidden'
  | 'system'
  | 'symlink_loop'
  | 'broken_symlink'
  | 'unreadable'
  | 'not_regular'
  | 'not_video'
  | 'vanished'
  | 'error';

export interface ScanIssue {
  path: string;
  code: SkipCode;
  reason: string;
}

export interface ScannedFile {
  /** Real path (symbolic links resolved), so a file reached twice is catalogued once. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ScanResult {
  files: ScannedFile[];
  issues: ScanIssue[];
  /** Regular files without a video extension: not reported one by one. */
  ignored: number;
  /** Real paths of the folders that were walked (for marking files that disappeared from them). */
  dirs: string[];
  /** Roots that do not exist: a mistyped folder or a drive not connected, an error of the import rather than a skipped file. */
  notFound: string[];
}

export interface ScanOptions {
  signal?: AbortSignal;
  /** Called every few hundred files so a big drop shows progress while it is walked. */
  onProgress?: (found: number) => void;
}

const REASONS: Record<SkipCode, string> = {
  hidden: 'hidden file or folder',
  system: 'system file or folder',
  symlink_loop: 'symbolic link loops back to a folder already being scanned',
  broken_symlink: 'symbolic link points to nothing',
  unreadable: 'permission denied',
  not_regular: 'not a regular file (device, pipe or socket)',
  not_video: 'not a video file extension',
  vanished: 'disappeared while scanning',
  error: 'could not be read',
};

function issue(p: string, code: SkipCode, detail?: string): ScanIssue {
  return { path: p, code, reason: detail ? `${REASONS[code]}: ${detail}` : REASONS[code] };
}

function errnoIssue(p: string, e: unknown): ScanIssue {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return issue(p, 'unreadable');
  if (code === 'ENOENT') return issue(p, 'vanished');
  if (code === 'ELOOP') return issue(p, 'symlink_loop');
  return issue(p, 'error', (e as Error).message);
}

const devIno = (st: fs.Stats) => `${st.dev}:${st.ino}`;

/**
 * Walks files and folders as dropped: recursive, following symbolic links to folders once (a link
 * back to an ancestor is reported as a loop), skipping hidden and system entries. Nothing here is
 * fatal: every problem becomes an issue and the walk goes on.
 */
export async function scanTree(roots: readonly string[], opts: ScanOptions = {}): Promise<ScanResult> {
  const files: ScannedFile[] = [];
  const issues: ScanIssue[] = [];
  const notFound: string[] = [];
  const dirs: string[] = [];
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  let ignored = 0;
  let lastReport = 0;

  const addFile = (p: string, st: fs.Stats) => {
    const key = devIno(st);
    if (seenFiles.has(key)) return;
    seenFiles.add(key);
    files.push({ path: p, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
    if (opts.onProgress && files.length - lastReport >= 250) {
      lastReport = files.length;
      opts.onProgress(files.length);
    }
  };

  // Each stack entry carries the real paths of its ancestors, to tell a loop from a second link to the same folder.
  const stack: { dir: string; ancestors: ReadonlySet<string> }[] = [];

  const enterDir = (realDir: string, st: fs.Stats, ancestors: ReadonlySet<string>, shownAs: string) => {
    const key = devIno(st);
    if (ancestors.has(key)) {
      issues.push(issue(shownAs, 'symlink_loop', `→ ${realDir}`));
      return;
    }
    if (seenDirs.has(key)) return; // reached again through another link: already walked
    seenDirs.add(key);
    dirs.push(realDir);
    stack.push({ dir: realDir, ancestors: new Set([...ancestors, key]) });
  };

  for (const root of roots) {
    let real: string;
    let st: fs.Stats;
    try {
      real = await fsp.realpath(path.resolve(root));
      st = await fsp.stat(real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') notFound.push(root);
      else issues.push(errnoIssue(root, e));
      continue;
    }
    if (st.isDirectory()) enterDir(real, st, new Set(), root);
    else if (st.isFile()) {
      if (isVideoPath(real)) addFile(real, st);
      else issues.push(issue(root, 'not_video'));
    } else issues.push(issue(root, 'not_regular'));
  }

  while (stack.length > 0) {
    if (opts.signal?.aborted) throw new AppError('cancelled', 'import cancelled');
    const { dir, ancestors } = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      issues.push(errnoIssue(dir, e));
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const toStat: { p: string; link: boolean }[] = [];
    for (const ent of entries) {
      const p = path.join(dir, ent.name);
      const hidden = hiddenKind(ent.name);
      if (hidden) {
        issues.push(issue(p, hidden));
        continue;
      }
      if (ent.isSymbolicLink()) toStat.push({ p, link: true });
      else if (ent.isDirectory()) toStat.push({ p, link: false });
      else if (ent.isFile()) {
        if (isVideoPath(ent.name)) toStat.push({ p, link: false });
        else ignored++;
      } else if (isVideoPath(ent.name)) issues.push(issue(p, 'not_regular'));
      else ignored++;
    }
    // stat in parallel within a folder: thousands of small files are bound by syscall latency.
    const stats = await Promise.all(
      toStat.map(async ({ p, link }) => {
        try {
          const st = await fsp.stat(p);
          const real = link ? await fsp.realpath(p) : p;
          return { p, link, real, st, err: null as unknown };
        } catch (err) {
          return { p, link, real: p, st: null, err };
        }
      }),
    );
    // Push subfolders in reverse so they are walked in name order.
    const subdirs: typeof stats = [];
    for (const s of stats) {
      if (!s.st) {
        const code = (s.err as NodeJS.ErrnoException).code;
        issues.push(s.link && code === 'ENOENT' ? issue(s.p, 'broken_symlink') : errnoIssue(s.p, s.err));
        continue;
      }
      if (s.st.isDirectory()) subdirs.push(s);
      else if (s.st.isFile()) {
        if (isVideoPath(s.real)) addFile(s.real, s.st);
        else ignored++;
      } else if (isVideoPath(s.p)) issues.push(issue(s.p, 'not_regular'));
    }
    for (const s of subdirs.reverse()) enterDir(s.real, s.st!, ancestors, s.p);
  }
  opts.onProgress?.(files.length);
  return { files, issues, ignored, dirs, notFound };
}
