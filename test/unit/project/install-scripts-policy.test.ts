import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

interface Pkg {
  allowScripts: Record<string, boolean>;
  devEngines: { packageManager: { name: string; version: string; onFail: string } };
}
type Lock = { packages: Record<string, { version: string; hasInstallScript?: boolean }> };

/**
 * Issue 42, item 5: a clean `npm ci` warned about 8 install scripts not covered by allowScripts,
 * and npm 12 blocks such scripts. Every locked package with an install script (on any platform:
 * a Mac installs the darwin ffmpeg packages) must be decided in package.json, by name only: the
 * lock file records no resolved URLs, and npm refuses a pinned entry it cannot verify against one.
 */
describe('install scripts policy (package.json allowScripts)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Pkg;
  const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const withScripts = Object.entries(lock.packages)
    .filter(([p, m]) => p !== '' && m.hasInstallScript)
    .map(([p]) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('decides every locked package that has an install script, and nothing else', () => {
    expect(withScripts.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(pkg.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
  });

  it('denies onnxruntime-node (its script only fetches CUDA libraries) and es5-ext (a protest message)', () => {
    expect(pkg.allowScripts['onnxruntime-node']).toBe(false);
    expect(pkg.allowScripts['es5-ext']).toBe(false);
    for (const name of ['better-sqlite3', 'usearch', 'electron', 'esbuild', '@ffmpeg-installer/linux-x64', '@ffprobe-installer/linux-x64']) expect(pkg.allowScripts[name], name).toBe(true);
  });

  it('asks for an npm that reads allowScripts: an older one would run the CUDA download', () => {
    // And onnxruntime-node's own switch in the project .npmrc, for an npm ci that neither reads allowScripts nor
    // has the variable (npm 11 warns that unknown keys "will stop working in the next major version": a warning, not a failure).
    expect(fs.readFileSync(path.join(REPO_ROOT, '.npmrc'), 'utf8')).toMatch(/^onnxruntime-node-install=skip$/m);
    expect(fs.readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8')).toMatch(/^export ONNXRUNTIME_NODE_INSTALL=skip$/m);
    expect(pkg.devEngines.packageManager).toMatchObject({ name: 'npm', onFail: 'error' });
    expect(semver.minVersion(pkg.devEngines.packageManager.version)!.version).toBe('11.16.0');
  });
});
