import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { AppError } from '../../../src-shared/errors';
import type { FfTool } from './ffmpeg-locate';

/** Executable formats of the platforms the app ships for: ELF, Mach-O (thin and fat), PE. */
const MAGICS = [Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from([0xfe, 0xed, 0xfa, 0xce]), Buffer.from([0xfe, 0xed, 0xfa, 0xcf]), Buffer.from([0xce, 0xfa, 0xed, 0xfe]), Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), Buffer.from([0xca, 0xfe, 0xba, 0xbe]), Buffer.from('MZ')];

const verified = new Map<string, string>();

/**
 * Checks that a program chosen for ffmpeg or ffprobe is one, before the app ever runs it for work:
 * it must be a native executable (a script is refused without being run), and `-version` must
 * answer "ffmpeg version ..." / "ffprobe version ...". Returns that first line. Cached per file
 * identity (path, size, mtime), so a replaced file is checked again.
 */
export function verifyTool(tool: FfTool, file: string): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    throw new AppError('media', `${tool}: ${file} does not exist`);
  }
  if (!st.isFile()) throw new AppError('media', `${tool}: ${file} is not a file`);
  const id = `${tool}\n${file}\n${st.size}\n${st.mtimeMs}`;
  const known = verified.get(id);
  if (known) return known;
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!MAGICS.some((m) => head.subarray(0, m.length).equals(m))) {
    throw new AppError('media', `${tool}: ${file} is not a program binary (scripts are not run as ${tool})`);
  }
  const r = spawnSync(file, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true });
  const first = (r.stdout ?? '').split(/\r?\n/)[0] ?? '';
  if (r.status !== 0 || !new RegExp(`^${tool} version \\S+`).test(first)) {
    throw new AppError('media', `${tool}: ${file} does not answer as ${tool} (${first || r.error?.message || `exit ${r.status}`})`);
  }
  const version = first.replace(/\s+Copyright.*$/, '');
  verified.set(id, version);
  return version;
}
