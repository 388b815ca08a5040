import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { AppError } from '../../../src-shared/errors';
import { inside, resolveUnder } from './resolve-under';

/** What a descriptor is: two files with the same identity are the same unchanged file. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/**
 * A regular file open for reading, proven to be the file its path named. Whoever gets one closes
 * `handle` (a stream made with autoClose does): read it, never its path again.
 */
export interface OpenedFile {
  handle: FileHandle;
  /** Where it was, for a name and a content type: not to be opened again. */
  real: string;
  identity: FileIdentity;
}

/**
 * O_NOFOLLOW refuses a link as the last part of the path (ELOOP). Windows has no such flag in
 * Node (nor FILE_FLAG_OPEN_REPARSE_POINT): there the open follows links and what makes it safe is
 * the identity check after the open (the descriptor's device and inode against the path's), which
 * runs on every platform.
 */
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export function identityOf(st: fs.Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

const swapped = (file: string) => new AppError('invalid', `${file} changed while it was opened (replaced, or swapped for a link)`);

/**
 * Opens `file` once, for reading, and proves the descriptor is the regular file the path names
 * (and, with `within`, one that really lives under that folder; with `expect`, the very file seen
 * before). A refusal comes back as an AppError value: not_found (gone, outside `within`), invalid
 * (a link swapped in, not a regular file, another file than expected), io.
 *
 * Why not check the path and open it: between the two the path can become a link to anything, and
 * the open follows it. Here the path's links are resolved first (a clip moved with a link left in
 * its place is still that clip) and the real path is opened without following a final link. A
 * parent folder swapped for a link between the resolve and the open could still lead the open
 * elsewhere, as O_NOFOLLOW guards only the last part; so after the open the path is resolved
 * again and must name the same real path and the same device and inode as the descriptor. A
 * descriptor opened on another file fails that, whatever the path did in between: only a file
 * that is at the real path once the descriptor is open passes, and that is the file meant. What is
 * left: the path may change after that second look, which no longer matters (nothing opens it
 * again; callers read the descriptor), and a hard link to another file put at the real path passes
 * as that file, which takes write access to the folder and the same filesystem; for a clip the
 * size and fingerprint, read from the descriptor (library/clip-file.ts), still refuse it.
 */
export async function openVerified(file: string, opts: { within?: string; expect?: FileIdentity } = {}): Promise<OpenedFile | AppError> {
  const gone = () => new AppError('not_found', `${file} is not there`);
  const whereNow = async (): Promise<string | null> => {
    const real = await fsp.realpath(file).catch(() => null);
    if (real === null || opts.within === undefined) return real;
    const root = await fsp.realpath(opts.within).catch(() => null);
    return root !== null && inside(root, real) ? real : null;
  };
  const real = await whereNow();
  if (real === null) return gone();
  let handle: FileHandle;
  try {
    handle = await fsp.open(real, fs.constants.O_RDONLY | NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return gone();
    if (code === 'ELOOP') return swapped(file);
    return new AppError('io', `cannot open ${file}: ${(e as Error).message}`, { cause: e });
  }
  const refuse = async (err: AppError): Promise<AppError> => {
    await handle.close().catch(() => undefined);
    return err;
  };
  try {
    const st = await handle.stat();
    if (!st.isFile()) return refuse(new AppError('invalid', `${file} is not a regular file`));
    const identity = identityOf(st);
    const after = await whereNow();
    const now = after === real ? await fsp.stat(after).catch(() => null) : null;
    if (!now || now.dev !== st.dev || now.ino !== st.ino) return refuse(swapped(file));
    if (opts.expect && !sameIdentity(identity, opts.expect)) return refuse(new AppError('invalid', `${file} is not the file it was (replaced or changed since)`));
    return { handle, real, identity };
  } catch (e) {
    return refuse(new AppError('io', `cannot read ${file}: ${(e as Error).message}`, { cause: e }));
  }
}

/**
 * The bytes of a small file under root (a poster for a drag icon), read from the verified
 * descriptor: a file over maxBytes is refused rather than read whole.
 */
export async function readUnder(root: string, relPath: string, maxBytes: number): Promise<Buffer | AppError> {
  const file = await openUnder(root, relPath);
  if (file instanceof AppError) return file;
  try {
    if (file.identity.size > maxBytes) return new AppError('too_large', `${relPath} is over ${maxBytes} bytes`);
    const buf = Buffer.alloc(file.identity.size);
    const { bytesRead } = await file.handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } catch (e) {
    return new AppError('io', `cannot read ${relPath}: ${(e as Error).message}`, { cause: e });
  } finally {
    await file.handle.close();
  }
}

/** A file in an app-owned folder (thumbnails, proxies) by its relative path: nothing outside it, no link. */
export async function openUnder(root: string, relPath: string): Promise<OpenedFile | AppError> {
  const file = resolveUnder(root, relPath);
  if (!file) return new AppError('not_found', `${relPath} is not under ${root}`);
  return openVerified(file, { within: root });
}
