#!/usr/bin/env node
// Builds out/ only when its sources changed since the last build, and never in place: electron-vite
// writes a fresh folder that replaces out/ by rename, so a test or an app reading out/ during a
// build never sees half a build. Two starts from one checkout (two seats on one machine, a test
// beside a running app) used to rebuild out/ on every start, each under the other.
//
//   node scripts/build-if-changed.mjs [--force]
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..');

/** What the build reads: a change to any of these is a new build. */
const INPUTS = ['src-main', 'src-preload', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json', 'package-lock.json'];
/** Files whose size and mtime tell that out/ is still the build we recorded (not one `electron-vite dev` or a manual build wrote since). */
const OUTPUTS = ['main/index.js', 'main/web.js', 'preload/index.js', 'renderer/index.html'];

/** Build state beside out/, in the ignored .tmp: the record of the last build and the lock. */
export function stateDir(root = ROOT) {
  return path.join(root, '.tmp', 'out');
}

function listFiles(p, rel, into) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return;
  }
  if (!st.isDirectory()) {
    into.push(rel);
    return;
  }
  for (const e of fs.readdirSync(p).sort()) listFiles(path.join(p, e), `${rel}/${e}`, into);
}

/** sha256 over the inputs' paths and contents (contents, not mtimes: a checkout back and forth does not rebuild). */
export function inputsHash(root = ROOT) {
  const files = [];
  for (const i of INPUTS) listFiles(path.join(root, i), i, files);
  for (const f of fs.readdirSync(root).sort()) if (/^tsconfig.*\.json$/.test(f)) files.push(f);
  const h = crypto.createHash('sha256');
  for (const f of files) {
    h.update(`${f}\0`);
    h.update(fs.readFileSync(path.join(root, f)));
    h.update('\0');
  }
  return h.digest('hex');
}

function outputsFingerprint(outDir) {
  return OUTPUTS.map((o) => {
    const st = fs.statSync(path.join(outDir, o));
    return `${o}:${st.size}:${Math.round(st.mtimeMs)}`;
  }).join(' ');
}

function readRecord(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(stateDir(root), 'built.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** The hash out/ was built from, when out/ is still that build; else null. */
export function currentBuild(root = ROOT) {
  const rec = readRecord(root);
  if (!rec) return null;
  try {
    return outputsFingerprint(path.join(root, 'out')) === rec.outputs ? rec.hash : null;
  } catch {
    return null;
  }
}

/** Whether a process lives (EPERM: it does, under another user). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The pid holding the lock; 0 while its holder has not written it yet; null for a lock gone or left without a pid. */
function lockHolder(lock) {
  try {
    return Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    try {
      return Date.now() - fs.statSync(lock).mtimeMs > 10_000 ? null : 0;
    } catch {
      return 0;
    }
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs fn holding the checkout's build lock (a directory: mkdir is atomic everywhere). A lock left
 * by a process that died is taken over; a live holder is waited for, saying so once.
 */
export function withLock(fn, root = ROOT) {
  const lock = path.join(stateDir(root), 'lock');
  fs.mkdirSync(stateDir(root), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = lockHolder(lock);
      if (holder === null || (holder && !alive(holder))) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) console.log(`[build] waiting for another build of this checkout${holder ? ` (pid ${holder})` : ''}`);
      told = true;
      sleep(250);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds into a fresh folder and swaps it in for out/ by rename; records what it was built from. */
function buildAndSwap(root, hash, quiet, why) {
  const state = stateDir(root);
  const next = path.join(state, `next-${process.pid}`);
  const old = path.join(state, `old-${process.pid}`);
  // Holding the lock, any other next-*/old-* is what a killed build left behind.
  for (const e of fs.readdirSync(state)) if (/^(next|old)-\d+$/.test(e)) fs.rmSync(path.join(state, e), { recursive: true, force: true });
  if (!quiet) console.log(`[build] ${why}: building out/`);
  const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  execFileSync(process.execPath, [cli, 'build'], { cwd: root, stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'], env: { ...process.env, REELSCOUT_OUT_DIR: next } });
  const out = path.join(root, 'out');
  if (fs.existsSync(out)) fs.renameSync(out, old);
  fs.renameSync(next, out);
  fs.rmSync(old, { recursive: true, force: true });
  fs.writeFileSync(path.join(state, 'built.json'), JSON.stringify({ hash, outputs: outputsFingerprint(out) }) + '\n');
}

/**
 * Makes out/ the build of the current sources (building only if it is not); returns their hash.
 * Call holding the lock. quiet: the build's output only in the error of a failed build (tests).
 */
export function ensureBuiltLocked(root = ROOT, { force = false, quiet = false } = {}) {
  const hash = inputsHash(root);
  if (force || currentBuild(root) !== hash) buildAndSwap(root, hash, quiet, force ? 'forced' : 'sources changed');
  return hash;
}

export function ensureBuilt(root = ROOT, opts = {}) {
  return withLock(() => ensureBuiltLocked(root, opts), root);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureBuilt(ROOT, { force: process.argv.includes('--force') });
}
