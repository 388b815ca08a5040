#!/usr/bin/env node
// Stages the ffmpeg and ffprobe that ship inside the app, one folder per target:
//   build/ffmpeg/<os>-<arch>/{ffmpeg,ffprobe}[.exe] + manifest.json
// <os>-<arch> is electron-builder's ${os}-${arch} (mac/win/linux, x64/arm64), so
// electron-builder.json copies the folder of the target being packed to <resources>/ffmpeg.
// The binaries come from npm packages whose tarballs carry them (@ffmpeg-installer/<platform>,
// @ffprobe-installer/<platform>; why these: docs/notes-library-choices.md), one source per target and
// tool in SOURCES. The host's package is already in node_modules (npm checked it against
// package-lock.json when it installed it); another target's is fetched with `npm pack` and its
// tarball checked against package-lock.json's integrity before a byte of it is used. A binary
// configured with --enable-nonfree is refused: the app must be able to redistribute what it ships.
// Each folder also gets the licence text the binaries' own configuration names.
//
//   node scripts/stage-ffmpeg.mjs [--out DIR] [--host | TARGET...]   (no target: all four)
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Where each target's tools come from: the npm package, and the architecture of its binary when it
 * is not the target's. macOS arm64's ffmpeg is the x86-64 build run by Rosetta 2: the registry's
 * only native arm64 ffmpeg (@ffmpeg-installer/darwin-arm64) was configured with --enable-nonfree and
 * says "nonfree and unredistributable" (docs/notes-library-choices.md). Its ffprobe is a native LGPL build.
 */
export const SOURCES = {
  'linux-x64': { ffmpeg: { package: '@ffmpeg-installer/linux-x64' }, ffprobe: { package: '@ffprobe-installer/linux-x64' } },
  'mac-arm64': { ffmpeg: { package: '@ffmpeg-installer/darwin-x64', arch: 'x64' }, ffprobe: { package: '@ffprobe-installer/darwin-arm64' } },
  'mac-x64': { ffmpeg: { package: '@ffmpeg-installer/darwin-x64' }, ffprobe: { package: '@ffprobe-installer/darwin-x64' } },
  'win-x64': { ffmpeg: { package: '@ffmpeg-installer/win32-x64' }, ffprobe: { package: '@ffprobe-installer/win32-x64' } },
};
const TOOLS = ['ffmpeg', 'ffprobe'];

/** The licence a binary's libraries report (libavutil's avutil_license()), and the text shipped beside it. */
const LICENCES = [
  // LGPL first: "LGPL version 3 or later" contains "GPL version 3 or later".
  { says: 'LGPL version 3 or later', text: 'LGPL-3' },
  { says: 'LGPL version 2.1 or later', text: 'LGPL-2.1' },
  { says: 'GPL version 3 or later', text: 'GPL-3' },
  { says: 'GPL version 2 or later', text: 'GPL-2' },
];

/** What a binary's configuration says it may be shipped under; throws for a build that may not be shipped. */
export function licenceOf(bytes, name) {
  const text = bytes.toString('latin1');
  if (text.includes('--enable-nonfree') || text.includes('nonfree and unredistributable')) {
    throw new Error(`${name} was configured with --enable-nonfree: it may not be redistributed`);
  }
  const found = LICENCES.find((l) => text.includes(l.says));
  if (!found) throw new Error(`${name} does not say its licence (no avutil_license() string in the binary)`);
  return found;
}

export function hostTarget() {
  const os_ = { darwin: 'mac', win32: 'win', linux: 'linux' }[process.platform];
  return `${os_}-${process.arch}`;
}

let lockFile;
function lockEntry(name) {
  // Read once per run: a build for every target asks it eight times.
  lockFile ??= JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const e = lockFile.packages?.[`node_modules/${name}`];
  if (!e?.version || !e.integrity) throw new Error(`${name} is not in package-lock.json with a version and an integrity`);
  return { version: e.version, integrity: e.integrity };
}

/** One file of a .tgz, by its path inside the archive (ustar: 512-byte headers, octal sizes). */
function fileFromTgz(tgz, wanted) {
  const tar = zlib.gunzipSync(tgz);
  for (let off = 0; off + 512 <= tar.length; ) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const str = (a, b) => header.subarray(a, b).toString('utf8').replace(/\0.*$/s, '');
    const name = [str(345, 500), str(0, 100)].filter(Boolean).join('/');
    const size = parseInt(str(124, 136).trim() || '0', 8);
    if (name === wanted) return tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${wanted} is not in the package`);
}

function fetchChecked(name, { version, integrity }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-stage-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const file = execFileSync(npm, ['pack', `${name}@${version}`, '--silent', '--pack-destination', dir], { encoding: 'utf8', shell: process.platform === 'win32' }).trim().split(/\r?\n/).pop();
    const tgz = fs.readFileSync(path.join(dir, file));
    const [algo, want] = integrity.split('-', 2);
    const got = crypto.createHash(algo).update(tgz).digest('base64');
    if (got !== want) throw new Error(`${name}@${version}: the tarball's ${algo} is ${got}, package-lock.json says ${want}`);
    return tgz;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The binary of one tool for one target, with where it came from. */
function binaryFor(tool, target) {
  const source = SOURCES[target][tool];
  const name = source.package;
  const lock = lockEntry(name);
  const exe = target.startsWith('win-') ? `${tool}.exe` : tool;
  const installed = path.join(ROOT, 'node_modules', name);
  let bytes;
  let via;
  const installedVersion = fs.existsSync(path.join(installed, 'package.json')) ? JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version : null;
  if (installedVersion === lock.version && fs.existsSync(path.join(installed, exe))) {
    bytes = fs.readFileSync(path.join(installed, exe));
    via = 'node_modules';
  } else {
    bytes = fileFromTgz(fetchChecked(name, lock), `package/${exe}`);
    via = 'npm pack, integrity checked';
  }
  const licence = licenceOf(bytes, `${name}@${lock.version}`);
  const arch = source.arch ?? target.split('-')[1];
  return {
    exe,
    bytes,
    licence,
    origin: { package: name, version: lock.version, integrity: lock.integrity, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), via, licence: licence.says, arch },
  };
}

export function stage(targets, outDir = path.join(ROOT, 'build', 'ffmpeg')) {
  for (const target of targets) {
    if (!SOURCES[target]) throw new Error(`unknown target ${target}; one of ${Object.keys(SOURCES).join(', ')}`);
    const dir = path.join(outDir, target);
    fs.mkdirSync(dir, { recursive: true });
    const manifest = {};
    const texts = new Set();
    for (const tool of TOOLS) {
      const b = binaryFor(tool, target);
      texts.add(b.licence.text);
      const file = path.join(dir, b.exe);
      // A fresh file, never a write through a hard link into node_modules.
      fs.rmSync(file, { force: true });
      fs.writeFileSync(file, b.bytes, { mode: 0o755 });
      fs.chmodSync(file, 0o755);
      manifest[tool] = { file: b.exe, ...b.origin };
    }
    // The texts the binaries' licences name (Debian's copies of the FSF texts, kept in the repository).
    for (const t of texts) fs.copyFileSync(path.join(ROOT, 'resources', 'licences', `${t}.txt`), path.join(dir, `COPYING.${t}.txt`));
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    console.log(`staged ${target}: ${Object.values(manifest).map((m) => `${m.package}@${m.version} (${m.via})`).join(', ')}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  let out;
  const i = args.indexOf('--out');
  if (i >= 0) [, out] = args.splice(i, 2);
  const host = args.includes('--host');
  const targets = host ? [hostTarget()] : args.length ? args : Object.keys(SOURCES);
  if (host && !SOURCES[targets[0]]) {
    // npm ci runs this: a machine the app does not ship for keeps using the system's tools.
    console.log(`stage-ffmpeg: no bundled ffmpeg for ${targets[0]}; the system's is used`);
    process.exit(0);
  }
  try {
    stage(targets, out ? path.resolve(out) : undefined);
  } catch (e) {
    console.error(`stage-ffmpeg: ${e.message}`);
    process.exit(1);
  }
}
