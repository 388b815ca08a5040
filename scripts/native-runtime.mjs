#!/usr/bin/env node
// better-sqlite3 is a V8 addon: its binary fits either Node's ABI or Electron's, never both.
// `npm test`/`start:web` need Node's, `npm start`/`dev` need Electron's: this switches on demand
// and records which one is built, so repeated runs cost nothing. (onnxruntime-node and usearch
// are N-API and run in both.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const target = process.argv[2];
if (target !== 'node' && target !== 'electron') {
  console.error('usage: native-runtime.mjs node|electron');
  process.exit(2);
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json', { paths: [root] }));
const stampFile = path.join(pkgDir, 'build', 'reelscout-runtime.txt');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function electronVersion() {
  try {
    return require(path.join(root, 'node_modules', 'electron', 'package.json')).version;
  } catch {
    return null;
  }
}

/**
 * The path of Electron's executable when it is there to run, else null. electron's postinstall
 * downloads it (skipped with ELECTRON_SKIP_BINARY_DOWNLOAD=1 or offline); without it the package
 * is only its JavaScript, whose require throws, and `electron-vite preview` would fail late with
 * "Electron uninstall" after this script had rebuilt better-sqlite3 for an Electron that cannot run.
 */
function electronBinary() {
  try {
    const bin = require(require.resolve('electron', { paths: [root] }));
    return typeof bin === 'string' && fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

function loadsInNode() {
  try {
    execFileSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

const want = target === 'node' ? `node-${process.versions.modules}` : `electron-${electronVersion()}`;
const have = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : null;

if (target === 'node') {
  if (have === want && loadsInNode()) process.exit(0);
  if (!loadsInNode()) {
    console.log('[native-runtime] rebuilding better-sqlite3 for Node', process.version);
    execFileSync(npm, ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  }
} else {
  // Checked before any rebuild: an addon rebuilt for Electron no longer loads in Node, so the
  // checkout's tests and web mode would break for nothing.
  if (!electronVersion() || !electronBinary()) {
    console.error(
      "[native-runtime] Electron's program is not installed in node_modules/electron (its download was skipped or failed), so `npm start` cannot open the app window: run `npm run start:web` to use Reelscout in a browser instead, or run `npm ci` again where electronjs.org can be reached.",
    );
    process.exit(1);
  }
  if (have === want) process.exit(0);
  console.log('[native-runtime] rebuilding better-sqlite3 for Electron', electronVersion());
  // Electron's documented manual rebuild: npm's own node-gyp against Electron's headers (a
  // prebuilt binary for that Electron is fetched first when one exists). No @electron/rebuild,
  // whose current versions require Node 22.
  const env = {
    ...process.env,
    npm_config_runtime: 'electron',
    npm_config_target: electronVersion(),
    npm_config_disturl: 'https://electronjs.org/headers',
    npm_config_build_from_source: process.env.npm_config_build_from_source ?? '',
  };
  execFileSync(npm, ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' });
}
fs.mkdirSync(path.dirname(stampFile), { recursive: true });
fs.writeFileSync(stampFile, want + '\n');
