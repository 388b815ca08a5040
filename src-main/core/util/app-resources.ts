import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the app's own files are. In a packaged app Electron sets process.resourcesPath and the
 * build copies resources there (electron-builder.json extraResources); from the repository
 * (vitest, tsx, an out/main build run in place) they are found from the project root.
 */
export interface ResourceLocations {
  /** Project root (folder of package.json); found by walking up from this file when omitted. */
  appRoot?: string;
  /** Electron's process.resourcesPath; read from process when omitted. */
  resourcesPath?: string;
}

export function electronResourcesPath(): string | undefined {
  const p = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return typeof p === 'string' && p ? p : undefined;
}

/** Nearest ancestor of `start` whose package.json is this app's (works from src-main/... and from out/main). */
export function findAppRoot(start: string = __dirname): string | null {
  let dir = path.resolve(start);
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        const name = (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: unknown }).name;
        if (name === 'reelscout') return dir;
      } catch {
        /* an unreadable package.json is not ours: keep walking */
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
