import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';

export const FACE_MODEL_FILE = 'yunet_n_dynamic.onnx';
export const WORKER_FILE = 'analysis-worker.cjs';

/**
 * Where resources live. In a packaged app Electron sets process.resourcesPath and the build copies
 * resources/models -> <resources>/models and src-main/core/analysis/workers ->
 * <resources>/analysis-workers (extraResources). From the repository (vitest, tsx, an out/main
 * build run in place) they are found from the project root.
 */
export interface ResourceLocations {
  /** Project root (folder of package.json); found by walking up from this file when omitted. */
  appRoot?: string;
  /** Electron's process.resourcesPath; read from process when omitted. */
  resourcesPath?: string;
}

function electronResourcesPath(): string | undefined {
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

function firstExisting(candidates: Array<string | null | undefined>, what: string): string {
  const list = candidates.filter((c): c is string => typeof c === 'string' && c.length > 0);
  for (const c of list) if (fs.existsSync(c)) return c;
  throw new AppError('not_found', `${what} not found; looked in: ${list.join(', ')}`);
}

/** The YuNet model: explicit path, REELSCOUT_FACE_MODEL, packaged resources, the repository. */
export function resolveFaceModelPath(explicit?: string, loc: ResourceLocations = {}): string {
  if (explicit) return firstExisting([explicit], 'face model');
  const res = loc.resourcesPath ?? electronResourcesPath();
  const root = loc.appRoot ?? findAppRoot();
  return firstExisting(
    [
      process.env.REELSCOUT_FACE_MODEL,
      res && path.join(res, 'models', FACE_MODEL_FILE),
      root && path.join(root, 'resources', 'models', FACE_MODEL_FILE),
    ],
    'face model',
  );
}

/** The worker script: explicit path, packaged resources, beside this file (source tree), the repository. */
export function resolveWorkerScript(explicit?: string, loc: ResourceLocations = {}): string {
  if (explicit) return firstExisting([explicit], 'analysis worker');
  const res = loc.resourcesPath ?? electronResourcesPath();
  const root = loc.appRoot ?? findAppRoot();
  return firstExisting(
    [
      res && path.join(res, 'analysis-workers', WORKER_FILE),
      path.join(__dirname, 'workers', WORKER_FILE),
      root && path.join(root, 'src-main', 'core', 'analysis', 'workers', WORKER_FILE),
    ],
    'analysis worker',
  );
}

/**
 * onnxruntime-node's entry, resolved here (inside the app's module tree, asar-aware in Electron)
 * and handed to workers, which may be loaded from a folder outside that tree.
 */
export function resolveOrtPath(): string {
  try {
    return createRequire(__filename).resolve('onnxruntime-node');
  } catch (e) {
    throw new AppError('not_found', 'onnxruntime-node is not installed', { cause: e });
  }
}
