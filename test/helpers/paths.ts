import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';

/** The project root (this file is test/helpers/paths.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** shared/ sits beside the clone, locally and in CI. */
export const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');
export const MEDIA_DIR = path.join(SHARED_DIR, 'media', 'videos');
export const FACE_MODELS_DIR = path.join(SHARED_DIR, 'models', 'face');

export function mediaFile(name: string): string {
  return path.join(MEDIA_DIR, name);
}

/** All real sample clips, sorted, videos only. */
export function sampleClips(): string[] {
  return fs
    .readdirSync(MEDIA_DIR)
    .filter((f) => /\.(mp4|mkv|webm|avi|mov)$/i.test(f))
    .sort()
    .map((f) => path.join(MEDIA_DIR, f));
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'reelscout-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
