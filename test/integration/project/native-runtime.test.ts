import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * Issue 42, item 4: `npm start` where Electron's binary was never downloaded rebuilt better-sqlite3
 * for Electron ("rebuilt dependencies successfully"), then failed with "Electron uninstall". The
 * script runs here in a checkout of its own (the real electron package's JavaScript, a stand-in
 * better-sqlite3 and an `npm` on PATH that only records its arguments), so the shared
 * node_modules is never rebuilt and the same cases run on a machine that has the binary.
 */
describe('native-runtime.mjs electron', () => {
  let tmp: ReturnType<typeof tempDir>;
  let root: string;
  const electronDir = (): string => path.join(root, 'node_modules', 'electron');
  const stamp = (): string => path.join(root, 'node_modules', 'better-sqlite3', 'build', 'reelscout-runtime.txt');
  const npmLog = (): string => path.join(root, 'npm-calls.txt');
  const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')).version as string;

  beforeEach(() => {
    tmp = tempDir('rs-native-runtime-');
    root = tmp.dir;
    fs.mkdirSync(path.join(root, 'scripts'));
    fs.copyFileSync(path.join(REPO_ROOT, 'scripts', 'native-runtime.mjs'), path.join(root, 'scripts', 'native-runtime.mjs'));
    fs.mkdirSync(electronDir(), { recursive: true });
    for (const f of ['package.json', 'index.js']) fs.copyFileSync(path.join(REPO_ROOT, 'node_modules', 'electron', f), path.join(electronDir(), f));
    fs.mkdirSync(path.dirname(stamp()), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', 'better-sqlite3', 'package.json'), '{"name":"better-sqlite3","version":"0.0.0"}');
    fs.writeFileSync(stamp(), 'node-115\n');
    fs.mkdirSync(path.join(root, 'bin'));
    fs.writeFileSync(path.join(root, 'bin', 'npm'), `#!/bin/sh\necho "$* runtime=$npm_config_runtime" >> '${npmLog()}'\n`, { mode: 0o755 });
  });
  afterEach(() => tmp.cleanup());

  function run(): { status: number | null; stdout: string; stderr: string } {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.join(root, 'bin')}${path.delimiter}${process.env.PATH}` };
    delete env.ELECTRON_OVERRIDE_DIST_PATH;
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'native-runtime.mjs'), 'electron'], { cwd: root, env, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  /** What electron's postinstall leaves behind: path.txt naming the executable under dist/. */
  function installBinary(): void {
    fs.writeFileSync(path.join(electronDir(), 'path.txt'), 'electron');
    fs.mkdirSync(path.join(electronDir(), 'dist'));
    fs.writeFileSync(path.join(electronDir(), 'dist', 'electron'), '', { mode: 0o755 });
  }

  function expectRefusedPlainly(r: ReturnType<typeof run>): void {
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("Electron's program is not installed");
    expect(r.stderr).toContain('`npm run start:web`');
    expect(r.stdout).not.toContain('rebuilding');
    // Nothing rebuilt: the checkout's better-sqlite3 still fits Node.
    expect(fs.existsSync(npmLog())).toBe(false);
    expect(fs.readFileSync(stamp(), 'utf8')).toBe('node-115\n');
  }

  it('says plainly that Electron is missing and start:web works, before any rebuild (download skipped)', () => {
    expectRefusedPlainly(run());
  });

  it('does the same when the download left path.txt but no executable', () => {
    installBinary();
    fs.rmSync(path.join(electronDir(), 'dist'), { recursive: true });
    expectRefusedPlainly(run());
  });

  it('with the executable in place rebuilds for Electron once, then does nothing', () => {
    installBinary();
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(fs.readFileSync(npmLog(), 'utf8')).toBe('rebuild better-sqlite3 runtime=electron\n');
    expect(fs.readFileSync(stamp(), 'utf8')).toBe(`electron-${version}\n`);
    const second = run();
    expect(second.status).toBe(0);
    expect(fs.readFileSync(npmLog(), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });
});
