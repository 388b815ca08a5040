import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';

export type FfTool = 'ffmpeg' | 'ffprobe';

export interface FfmpegLocateOptions {
  /** Paths chosen in Settings: they win over everything else. */
  explicit?: Partial<Record<FfTool, string | undefined>>;
  env?: NodeJS.ProcessEnv;
  /** Test seam: where the bundled ffmpeg-static binary would be. */
  bundledFfmpeg?: () => string | null;
}

export interface LocatedTool {
  path: string;
  source: 'setting' | 'env' | 'bundled' | 'system';
}

const ENV_NAMES: Record<FfTool, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };

/**
 * ffmpeg-static is an optional dependency: its install downloads a binary and fails offline,
 * so it is often absent. In a packaged app the binary sits in app.asar.unpacked.
 */
function defaultBundledFfmpeg(): string | null {
  try {
    const p = require('ffmpeg-static') as string | null;
    if (!p) return null;
    const unpacked = p.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    return fs.existsSync(unpacked) ? unpacked : null;
  } catch {
    return null;
  }
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext.toLowerCase());
      if (isExecutable(candidate)) return candidate;
      const upper = path.join(dir, name + ext);
      if (ext && isExecutable(upper)) return upper;
    }
  }
  return null;
}

/**
 * Resolution order: explicit setting, FFMPEG_PATH/FFPROBE_PATH, a bundled binary, the system's.
 * ffmpeg-static bundles only ffmpeg; a bundled ffprobe is looked for beside it.
 */
export function locateTool(tool: FfTool, opts: FfmpegLocateOptions = {}): LocatedTool {
  const env = opts.env ?? process.env;
  const explicit = opts.explicit?.[tool];
  if (explicit) {
    if (!isExecutable(explicit)) throw new AppError('media', `${tool} set in Settings is not an executable file: ${explicit}`);
    return { path: explicit, source: 'setting' };
  }
  const fromEnv = env[ENV_NAMES[tool]];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new AppError('media', `${ENV_NAMES[tool]} is not an executable file: ${fromEnv}`);
    return { path: fromEnv, source: 'env' };
  }
  const bundledFfmpeg = (opts.bundledFfmpeg ?? defaultBundledFfmpeg)();
  if (bundledFfmpeg) {
    const candidate = tool === 'ffmpeg' ? bundledFfmpeg : path.join(path.dirname(bundledFfmpeg), path.basename(bundledFfmpeg).replace('ffmpeg', 'ffprobe'));
    if (isExecutable(candidate)) return { path: candidate, source: 'bundled' };
  }
  const system = findOnPath(tool, env);
  if (system) return { path: system, source: 'system' };
  throw new AppError('media', `${tool} was not found: set its path in Settings or ${ENV_NAMES[tool]}, or install it`);
}

let cache: Partial<Record<FfTool, LocatedTool>> = {};
let cacheKey = '';

/** Cached per explicit settings, since every probe and decode needs it. */
export function ffPath(tool: FfTool, explicit?: FfmpegLocateOptions['explicit']): string {
  const key = JSON.stringify(explicit ?? {});
  if (key !== cacheKey) {
    cache = {};
    cacheKey = key;
  }
  const hit = cache[tool] ?? (cache[tool] = locateTool(tool, { explicit }));
  return hit.path;
}

export function resetFfPathCache(): void {
  cache = {};
  cacheKey = '';
}
