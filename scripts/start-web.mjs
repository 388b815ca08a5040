#!/usr/bin/env node
// `npm run start:web`: builds out/ if its sources changed, then runs web mode from a copy of that
// build kept for as long as an instance uses it. A later build replaces out/, never the files a
// running instance serves (its renderer is read from disk on every request, and a page built for
// another main would talk to it in another protocol).
//
//   node scripts/start-web.mjs [web-mode flags: --port, --data-dir, ...]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ROOT, alive, ensureBuiltLocked, stateDir, withLock } from './build-if-changed.mjs';

/** Processes that registered as running from a copy (a file per pid; one whose process is gone does not count). */
function liveUsers(copy) {
  try {
    return fs.readdirSync(path.join(copy, '.users')).map(Number).filter((pid) => pid && alive(pid));
  } catch {
    return [];
  }
}

/**
 * The copy of out/ for this hash, registered to this process, with copies no live instance uses
 * removed. Holding the build lock: a copy is never removed between another start's copy and its
 * registration. Inside the checkout, so the copy still finds node_modules and the app's root.
 */
export function runCopy(root, hash, pid = process.pid) {
  const runs = path.join(stateDir(root), 'runs');
  const copy = path.join(runs, hash.slice(0, 16));
  if (!fs.existsSync(copy)) {
    const tmp = `${copy}.tmp-${pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(path.join(root, 'out'), tmp, { recursive: true });
    fs.renameSync(tmp, copy);
  }
  fs.mkdirSync(path.join(copy, '.users'), { recursive: true });
  fs.writeFileSync(path.join(copy, '.users', String(pid)), '');
  for (const other of fs.readdirSync(runs)) {
    const p = path.join(runs, other);
    if (p !== copy && liveUsers(p).length === 0) fs.rmSync(p, { recursive: true, force: true });
  }
  return copy;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const copy = withLock(() => runCopy(ROOT, ensureBuiltLocked(ROOT)));
  const mark = path.join(copy, '.users', String(process.pid));
  process.on('exit', () => fs.rmSync(mark, { force: true }));
  // In this process, so the registered pid is the server's own; web.js reads its flags from argv.
  createRequire(import.meta.url)(path.join(copy, 'main', 'web.js'));
}
