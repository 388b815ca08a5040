import path from 'node:path';

/**
 * A name in `dir` that `exists` says is free: the name itself, else "name 2.ext", "name 3.ext"...
 * (several files saved into a folder the user picked must not silently replace what is there).
 */
export function freeFileName(dir: string, fileName: string, exists: (p: string) => boolean): string {
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? fileName : `${stem} ${n}${ext}`);
    if (!exists(candidate)) return candidate;
  }
}
