import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { electronResourcesPath, findAppRoot, type ResourceLocations } from '../util/app-resources';

export type FfTool = 'ffmpeg' | 'ffprobe';
export type ToolSource = 'setting' | 'env' | 'bundled' | 'system';

export interface FfmpegLocateOptions extends ResourceLocations {
  /** Paths chosen in Settings: they win over everything else. */
  explicit?: Partial<Record<FfTool, string | undefined>>;
  env?: NodeJS.ProcessEnv;
}

export interface LocatedTool {
  path: string;
  source: ToolSource;
  /** A bundled tool's npm package and version (its folder's manifest.json), for Settings. */
  origin?: string;
}

const ENV_NAMES: Record<FfTool, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };

/** electron-builder's ${os}-${arch} of this process: the name of its staged folder. */
export function bundleTarget(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = platform === 'darwin' ? 'mac' : platform === 'win32' ? 'win' : platform;
  return `${os}-${arch}`;
}

/**
 * The app's own ffmpeg and ffprobe, staged by scripts/stage-ffmpeg.mjs with a manifest.json: in the
 * package at <resources>/ffmpeg (extraResources, outside the asar so they can be executed), in the
 * repository at build/ffmpeg/<os>-<arch> (staged by `npm install`'s postinstall). One lookup for the
 * package, dev and tests.
 */
function bundledTool(tool: FfTool, loc: ResourceLocations = {}): { path: string; origin: string } | null {
  const res = loc.resourcesPath ?? electronResourcesPath();
  const root = loc.appRoot ?? findAppRoot();
  const dirs = [res && path.join(res, 'ffmpeg'), root && path.join(root, 'build', 'ffmpeg', bundleTarget())];
  for (const dir of dirs) {
    if (!dir) continue;
    let entry: { file?: unknown; package?: unknown; version?: unknown; licence?: unknown; arch?: unknown } | undefined;
    try {
      entry = (JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, typeof entry>)[tool];
    } catch {
      continue;
    }
    if (typeof entry?.file !== 'string' || path.basename(entry.file) !== entry.file) continue;
    const file = path.join(dir, entry.file);
    if (isExecutable(file)) return { path: file, origin: originOf(entry) };
  }
  return null;
}

/** "<package> <version>", then its licence and, for a binary of another architecture, how it runs. */
function originOf(entry: { package?: unknown; version?: unknown; licence?: unknown; arch?: unknown }): string {
  const notes = [typeof entry.licence === 'string' ? entry.licence : null, typeof entry.arch === 'string' && entry.arch !== process.arch ? `${entry.arch} build, run by Rosetta 2` : null];
  return [`${String(entry.package)} ${String(entry.version)}`, ...notes.filter((n) => n !== null)].join(', ');
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

/** Resolution order: explicit setting, FFMPEG_PATH/FFPROBE_PATH, the app's own (bundled), the system's (PATH). */
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
  const bundled = bundledTool(tool, opts);
  if (bundled) return { path: bundled.path, source: 'bundled', origin: bundled.origin };
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
