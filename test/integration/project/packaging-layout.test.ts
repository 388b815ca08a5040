import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createPackageWithOptions, listPackage } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL_FILE, FACE_MODEL_FILE, resolveEmbeddingModelPath, resolveFaceModelPath, resolveWorkerScript, WORKER_FILE } from '../../../src-main/core/analysis/resource-paths';
import { locateTool } from '../../../src-main/core/media/ffmpeg-locate';
import { readTeamMigrations, resolveTeamMigrationsDir } from '../../../src-main/core/team/server/migrate-team';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { licenceOf, SOURCES } from '../../../scripts/stage-ffmpeg.mjs';

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string; filter: string[] }[];
  afterPack: string;
  mac: { target: { target: string; arch: string[] }[] };
  win: { target: { target: string; arch: string[] }[] };
  linux: { target: { target: string; arch: string[] }[] };
}

const config = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'electron-builder.json'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };

/** What an executable is, read from its headers: the check that needs no macOS or Windows to run on. */
interface BinaryFacts {
  format: 'elf' | 'mach-o' | 'pe' | 'unknown';
  arch: 'x64' | 'arm64' | 'other';
  /** ELF: has a PT_INTERP (asks for the dynamic loader); Mach-O: the dylibs it loads. */
  dynamicLoader?: boolean;
  dylibs?: string[];
}

function binaryFacts(file: string): BinaryFacts {
  const b = fs.readFileSync(file);
  if (b.readUInt32BE(0) === 0x7f454c46) {
    const arch = b.readUInt16LE(18) === 0x3e ? 'x64' : b.readUInt16LE(18) === 0xb7 ? 'arm64' : 'other';
    const phoff = Number(b.readBigUInt64LE(32));
    const phentsize = b.readUInt16LE(54);
    const phnum = b.readUInt16LE(56);
    const types = Array.from({ length: phnum }, (_, i) => b.readUInt32LE(phoff + i * phentsize));
    return { format: 'elf', arch, dynamicLoader: types.includes(3) };
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    const arch = cpu === 0x01000007 ? 'x64' : cpu === 0x0100000c ? 'arm64' : 'other';
    const dylibs: string[] = [];
    const ncmds = b.readUInt32LE(16);
    for (let i = 0, off = 32; i < ncmds; i++) {
      const cmd = b.readUInt32LE(off);
      const size = b.readUInt32LE(off + 4);
      // LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB: a dylib_command with the name at its offset.
      if (cmd === 0xc || cmd === 0x80000018 || cmd === 0x8000001f) {
        const nameAt = off + b.readUInt32LE(off + 8);
        dylibs.push(b.subarray(nameAt, off + size).toString('utf8').replace(/\0.*$/s, ''));
      }
      off += size;
    }
    return { format: 'mach-o', arch, dylibs };
  }
  if (b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    if (b.toString('latin1', pe, pe + 4) !== 'PE\0\0') return { format: 'unknown', arch: 'other' };
    const machine = b.readUInt16LE(pe + 4);
    return { format: 'pe', arch: machine === 0x8664 ? 'x64' : machine === 0xaa64 ? 'arm64' : 'other' };
  }
  return { format: 'unknown', arch: 'other' };
}

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
      return fs.existsSync(path.join(dir, 'binding.gyp')) || walk(dir).some((f) => f.endsWith('.node'));
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
    // The ffmpeg folder is per target (${os}-${arch}): the test below stages and checks it.
    for (const r of config.extraResources.filter((x) => x.to !== 'ffmpeg')) {
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
      expect(resolveEmbeddingModelPath(undefined, { resourcesPath: resources, appRoot: '/nonexistent' })).toBe(path.join(resources, 'models', EMBEDDING_MODEL_FILE));
      // Each model ships with its licence.
      for (const licence of ['LICENSE.yunet', 'LICENSE.mobilefacenet']) expect(fs.existsSync(path.join(resources, 'models', licence)), licence).toBe(true);
      expect(resolveWorkerScript(undefined, { resourcesPath: resources, appRoot: '/nonexistent' })).toBe(path.join(resources, 'analysis-workers', WORKER_FILE));
      const migrations = resolveTeamMigrationsDir({ resourcesPath: resources, appRoot: '/nonexistent' });
      expect(migrations).toBe(path.join(resources, 'team-migrations'));
      expect(readTeamMigrations(migrations).length).toBeGreaterThan(0);
    } finally {
      if (saved !== undefined) process.env.REELSCOUT_FACE_MODEL = saved;
    }
    // The worker's own modules are beside it: require them from there in a separate process.
    const worker = path.join(resources, 'analysis-workers');
    const r = spawnSync(process.execPath, ['-e', `for (const m of ['yunet.cjs', 'block-motion.cjs', 'face-align.cjs', 'face-identity.cjs']) require(${JSON.stringify(worker)} + '/' + m); console.log('ok')`], { encoding: 'utf8' });
    expect(r.stdout.trim(), r.stderr).toBe('ok');
    const requires = [...fs.readFileSync(path.join(worker, WORKER_FILE), 'utf8').matchAll(/require\('\.\/([^']+)'\)/g)].map((m) => m[1]!);
    for (const m of requires) expect(fs.existsSync(path.join(worker, m)), m).toBe(true);
  });

  it('ffmpeg and ffprobe for every target are staged with their origin and licence, in the format and architecture their source declares, never a nonfree build, and found there by the resolver', () => {
    // The folder electron-builder copies for a target is build/ffmpeg/${os}-${arch}.
    const entry = config.extraResources.find((r) => r.to === 'ffmpeg');
    expect(entry?.from).toBe('build/ffmpeg/${os}-${arch}');
    const targets = [
      ...config.mac.target.flatMap((t) => t.arch.map((a) => `mac-${a}`)),
      ...config.win.target.flatMap((t) => t.arch.map((a) => `win-${a}`)),
      ...[...new Set(config.linux.target.flatMap((t) => t.arch))].map((a) => `linux-${a}`),
    ];
    expect(targets.sort()).toEqual(['linux-x64', 'mac-arm64', 'mac-x64', 'win-x64']);
    expect(Object.keys(SOURCES).sort()).toEqual(targets);
    const staged = path.join(tmp.dir, 'ffmpeg-staged');
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'stage-ffmpeg.mjs'), '--out', staged, ...targets], { encoding: 'utf8', cwd: REPO_ROOT });
    expect(r.status, r.stderr).toBe(0);
    const want = { mac: 'mach-o', win: 'pe', linux: 'elf' } as const;
    for (const target of targets) {
      const [os, arch] = target.split('-') as ['mac' | 'win' | 'linux', 'x64' | 'arm64'];
      const dir = path.join(staged, target);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, { file: string; package: string; version: string; integrity: string; licence: string; arch: string }>;
      for (const tool of ['ffmpeg', 'ffprobe'] as const) {
        const m = manifest[tool]!;
        const source = SOURCES[target]![tool];
        const npmPlatform = { mac: 'darwin', win: 'win32', linux: 'linux' }[os];
        expect(m.package, target).toBe(source.package);
        expect(m.package, target).toMatch(new RegExp(`^@${tool}-installer/${npmPlatform}-(x64|arm64)$`));
        expect(m.integrity).toMatch(/^sha512-/);
        const file = path.join(dir, m.file);
        expect(m.file).toBe(os === 'win' ? `${tool}.exe` : tool);
        expect(fs.statSync(file).mode & 0o111, `${target} ${tool} is executable`).toBe(0o111);
        const facts = binaryFacts(file);
        // Only a declared exception runs another architecture (macOS arm64's ffmpeg, under Rosetta 2).
        expect(facts, `${target} ${tool}`).toMatchObject({ format: want[os], arch: source.arch ?? arch });
        expect(m.arch).toBe(facts.arch);
        // Redistributable: the binary's own configuration names its licence, and its text is beside it.
        const bytes = fs.readFileSync(file);
        expect(bytes.includes('--enable-nonfree'), `${target} ${tool} is not a nonfree build`).toBe(false);
        const licence = licenceOf(bytes, `${target} ${tool}`);
        expect(m.licence).toBe(licence.says);
        expect(fs.readFileSync(path.join(dir, `COPYING.${licence.text}.txt`), 'utf8')).toMatch(/GNU (LESSER |LIBRARY )?GENERAL PUBLIC LICENSE/);
        // Self-contained: a fresh machine has nothing but the OS's own libraries.
        if (facts.format === 'elf') expect(facts.dynamicLoader, `${target} ${tool} is statically linked`).toBe(false);
        if (facts.format === 'mach-o') {
          expect(facts.dylibs!.length).toBeGreaterThan(0);
          expect(facts.dylibs!.filter((d) => !d.startsWith('/usr/lib/') && !d.startsWith('/System/Library/')), `${target} ${tool}`).toEqual([]);
        }
      }
    }
    // Laid out as the package has it (<resources>/ffmpeg), with no PATH: the resolver takes the
    // bundled pair, and the one built for this machine answers as what it claims to be.
    const resources = path.join(tmp.dir, 'resources-ffmpeg');
    fs.mkdirSync(resources);
    fs.cpSync(path.join(staged, 'linux-x64'), path.join(resources, 'ffmpeg'), { recursive: true });
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const found = locateTool(tool, { env: {}, resourcesPath: resources, appRoot: '/nonexistent' });
      expect(found).toMatchObject({ path: path.join(resources, 'ffmpeg', tool), source: 'bundled', origin: expect.stringMatching(new RegExp(`^@${tool}-installer/linux-x64 `)) });
      if (process.platform === 'linux' && process.arch === 'x64') {
        const v = spawnSync(found.path, ['-hide_banner', '-version'], { encoding: 'utf8', env: {} });
        expect(v.stdout).toMatch(new RegExp(`^${tool} version `));
      }
    }
  }, 300_000);

  it('refuses to stage a build configured with --enable-nonfree, and one that does not say its licence', () => {
    const nonfree = Buffer.from('\0ffmpeg version 4.4\0--enable-gpl --enable-nonfree\0nonfree and unredistributable\0');
    expect(() => licenceOf(nonfree, 'x')).toThrow(/nonfree/);
    expect(() => licenceOf(Buffer.from('\0ffmpeg version 4.4\0'), 'x')).toThrow(/does not say its licence/);
    expect(licenceOf(Buffer.from('\0LGPL version 2.1 or later\0'), 'x')).toEqual({ says: 'LGPL version 2.1 or later', text: 'LGPL-2.1' });
  });
});
