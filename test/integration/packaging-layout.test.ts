import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createPackageWithOptions, listPackage } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';
import { FACE_MODEL_FILE, resolveFaceModelPath, resolveWorkerScript, WORKER_FILE } from '../../src-main/core/analysis/resource-paths';
import { REPO_ROOT, tempDir } from '../helpers/paths';

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string; filter: string[] }[];
  afterPack: string;
  mac: { target: { target: string; arch: string[] }[] };
  win: { target: { target: string }[] };
  linux: { target: { target: string }[] };
}

const config = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'electron-builder.json'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };

/** Files under dir, relative, with forward slashes. */
function walk(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name)).split(path.sep).join('/')]));
}

/**
 * What `npm run dist` packages, checked here without the Electron binary: the asar holds the app
 * the config names, native modules are unpacked, and the resources land where the resolver that
 * dev, tests and the package share looks for them.
 */
describe('packaging layout (electron-builder.json)', () => {
  const tmp = tempDir('rs-packaging-');
  afterAll(() => tmp.cleanup());

  it('targets dmg (arm64 + x64), NSIS, AppImage and deb, and flips the fuses after packing', () => {
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(fs.existsSync(path.join(REPO_ROOT, config.afterPack))).toBe(true);
    const { FUSES, fuseConfig } = require(path.join(REPO_ROOT, 'scripts', 'fuses.cjs')) as { FUSES: Record<string, boolean>; fuseConfig: (reset: boolean) => Record<string, unknown> };
    expect(FUSES).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      GrantFileProtocolExtraPrivileges: false,
    });
    // Every name is a real fuse of @electron/fuses (an unknown one throws).
    expect(Object.keys(fuseConfig(false)).filter((k) => /^\d+$/.test(k))).toHaveLength(7);
  });

  it('unpacks every native module of the dependencies from the asar', () => {
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies });
    const native = deps.filter((d) => {
      const dir = path.join(REPO_ROOT, 'node_modules', d);
      if (!fs.existsSync(dir)) return false;
      return fs.existsSync(path.join(dir, 'binding.gyp')) || walk(dir).some((f) => f.endsWith('.node')) || d === 'ffmpeg-static';
    });
    expect(native).toEqual(expect.arrayContaining(['better-sqlite3', 'onnxruntime-node', 'usearch']));
    for (const d of native) expect(config.asarUnpack, d).toContain(`node_modules/${d}/**`);
  });

  it('the asar built from out/ and package.json holds the app the config names', async () => {
    const stage = path.join(tmp.dir, 'stage');
    fs.mkdirSync(stage);
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(stage, 'package.json'));
    for (const f of walk(path.join(REPO_ROOT, 'out'))) {
      if (f.endsWith('.map')) continue; // "!**/*.map"
      fs.mkdirSync(path.dirname(path.join(stage, 'out', f)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, 'out', f), path.join(stage, 'out', f));
    }
    expect(config.files).toEqual(['out/**/*', 'package.json', '!**/*.map']);
    const asar = path.join(tmp.dir, 'resources', 'app.asar');
    fs.mkdirSync(path.dirname(asar), { recursive: true });
    await createPackageWithOptions(stage, asar, {});
    const listed = listPackage(asar, { isPack: false }).map((p) => p.replace(/\\/g, '/'));
    for (const f of ['/package.json', `/${path.posix.normalize(pkg.main)}`, '/out/main/web.js', '/out/preload/index.js', '/out/renderer/index.html']) expect(listed, f).toContain(f);
    expect(listed.some((f) => f.endsWith('.map'))).toBe(false);
    // The main bundle serves the renderer from ../renderer (app-protocol.ts rendererDirOf).
    expect(listed.some((f) => f.startsWith('/out/renderer/assets/'))).toBe(true);
  });

  it('the resource resolver finds the model and the workers in a layout like the package, and the workers load their modules there', () => {
    const resources = path.join(tmp.dir, 'resources');
    for (const r of config.extraResources) {
      const ext = r.filter[0]!.replace('**/*', '');
      for (const f of walk(path.join(REPO_ROOT, r.from)).filter((x) => x.endsWith(ext))) {
        fs.mkdirSync(path.dirname(path.join(resources, r.to, f)), { recursive: true });
        fs.copyFileSync(path.join(REPO_ROOT, r.from, f), path.join(resources, r.to, f));
      }
    }
    const saved = process.env.REELSCOUT_FACE_MODEL;
    delete process.env.REELSCOUT_FACE_MODEL;
    try {
      expect(resolveFaceModelPath(undefined, { resourcesPath: resources, appRoot: '/nonexistent' })).toBe(path.join(resources, 'models', FACE_MODEL_FILE));
      expect(resolveWorkerScript(undefined, { resourcesPath: resources, appRoot: '/nonexistent' })).toBe(path.join(resources, 'analysis-workers', WORKER_FILE));
    } finally {
      if (saved !== undefined) process.env.REELSCOUT_FACE_MODEL = saved;
    }
    // The worker's own modules are beside it: require them from there in a separate process.
    const worker = path.join(resources, 'analysis-workers');
    const r = spawnSync(process.execPath, ['-e', `for (const m of ['yunet.cjs', 'block-motion.cjs']) require(${JSON.stringify(worker)} + '/' + m); console.log('ok')`], { encoding: 'utf8' });
    expect(r.stdout.trim(), r.stderr).toBe('ok');
    const requires = [...fs.readFileSync(path.join(worker, WORKER_FILE), 'utf8').matchAll(/require\('\.\/([^']+)'\)/g)].map((m) => m[1]!);
    for (const m of requires) expect(fs.existsSync(path.join(worker, m)), m).toBe(true);
  });
});
