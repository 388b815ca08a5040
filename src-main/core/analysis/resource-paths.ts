import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { electronResourcesPath, findAppRoot, type ResourceLocations } from '../util/app-resources';

export const FACE_MODEL_FILE = 'yunet_n_dynamic.onnx';
/** The face identity model; its file name is the model id stored with each embedding. */
export const EMBEDDING_MODEL_FILE = 'mobilefacenet-int8.onnx';
export const WORKER_FILE = 'analysis-worker.cjs';

// In the package the build copies resources/models -> <resources>/models and
// src-main/core/analysis/workers -> <resources>/analysis-workers (extraResources).

function firstExisting(candidates: Array<string | null | undefined>, what: string): string {
  const list = candidates.filter((c): c is string => typeof c === 'string' && c.length > 0);
  for (const c of list) if (fs.existsSync(c)) return c;
  throw new AppError('not_found', `${what} not found; looked in: ${list.join(', ')}`);
}

function resolveModel(file: string, what: string, explicit: string | undefined, env: string | undefined, loc: ResourceLocations): string {
  if (explicit) return firstExisting([explicit], what);
  const res = loc.resourcesPath ?? electronResourcesPath();
  const root = loc.appRoot ?? findAppRoot();
  return firstExisting([env, res && path.join(res, 'models', file), root && path.join(root, 'resources', 'models', file)], what);
}

/** The YuNet model: explicit path, REELSCOUT_FACE_MODEL, packaged resources, the repository. */
export function resolveFaceModelPath(explicit?: string, loc: ResourceLocations = {}): string {
  return resolveModel(FACE_MODEL_FILE, 'face model', explicit, process.env.REELSCOUT_FACE_MODEL, loc);
}

/** MobileFaceNet: explicit path, REELSCOUT_EMBEDDING_MODEL, packaged resources, the repository. */
export function resolveEmbeddingModelPath(explicit?: string, loc: ResourceLocations = {}): string {
  return resolveModel(EMBEDDING_MODEL_FILE, 'face embedding model', explicit, process.env.REELSCOUT_EMBEDDING_MODEL, loc);
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
