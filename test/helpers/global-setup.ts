import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCES = ['src-main', 'src-preload', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];
const OUTPUTS = ['out/main/index.js', 'out/main/web.js', 'out/preload/index.js', 'out/renderer/index.html'];

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, e)));
  return max;
}

/** e2e tests drive the built renderer: build once per run when the bundles are older than the sources. */
export default async function setup(): Promise<void> {
  const outs = OUTPUTS.map((o) => path.join(ROOT, o));
  const oldest = Math.min(...outs.map((o) => (fs.existsSync(o) ? fs.statSync(o).mtimeMs : 0)));
  const newest = Math.max(...SOURCES.map((s) => path.join(ROOT, s)).filter((s) => fs.existsSync(s)).map(newestMtime));
  if (oldest >= newest) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'pipe' });
}
