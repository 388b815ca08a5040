import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * Issue 42, item 6: `npm run start:web` rebuilt out/ on every start, so two instances from one
 * checkout (two seats on a machine, a test beside a running app) overwrote each other's build.
 * In a copy of the project (its own out/, the installed node_modules linked): a build only when
 * a source changed, one build for two starts at once, and a running instance that keeps serving
 * the page and scripts it started with after a rebuild.
 */
describe('build-if-changed and start-web', () => {
  const tmp = tempDir('rs-build-once-');
  const copy = path.join(tmp.dir, 'reelscout');
  const procs: ChildProcess[] = [];
  afterAll(() => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    tmp.cleanup();
  });

  const webJs = (): string => path.join(copy, 'out', 'main', 'web.js');

  function build(): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(copy, 'scripts', 'build-if-changed.mjs')], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
  }

  /** A web instance as `npm run start:web` starts it; resolves with its URL once it listens, its session cookie taken. */
  async function startWeb(name: string): Promise<{ child: ChildProcess; get: (p: string) => Promise<Response> }> {
    const child = spawn(process.execPath, [path.join(copy, 'scripts', 'start-web.mjs'), '--data-dir', path.join(tmp.dir, name)], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(child);
    const openUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /^Open: (\S+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      child.on('exit', (code) => reject(new Error(`start-web exited ${code}:\n${out}`)));
    });
    const first = await fetch(openUrl, { redirect: 'manual' });
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    return { child, get: (p) => fetch(new URL(p, openUrl), { headers: { cookie } }) };
  }

  const scriptOf = (html: string): string => /<script[^>]+src="([^"]+)"/.exec(html)![1]!;

  it('builds once per change of the sources, and never under a running instance', { timeout: 300_000 }, async () => {
    for (const f of ['src-main', 'src-preload', 'src-renderer', 'src-shared', 'scripts', 'electron.vite.config.ts', 'package.json', 'package-lock.json']) {
      fs.cpSync(path.join(REPO_ROOT, f), path.join(copy, f), { recursive: true });
    }
    for (const f of fs.readdirSync(REPO_ROOT).filter((n) => /^tsconfig.*\.json$/.test(n))) fs.copyFileSync(path.join(REPO_ROOT, f), path.join(copy, f));
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));

    const first = await build();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('sources changed: building out/');
    const built = fs.statSync(webJs());

    const again = await build();
    expect(again.code, again.out).toBe(0);
    expect(again.out).toBe('');
    expect(fs.statSync(webJs()).ino).toBe(built.ino);
    expect(fs.statSync(webJs()).mtimeMs).toBe(built.mtimeMs);

    const a = await startWeb('a');
    const pageA = await (await a.get('/')).text();
    const scriptA = scriptOf(pageA);
    expect((await a.get(scriptA)).status).toBe(200);

    // An edit that changes the renderer's bundle, then two builds started together, as two seats would.
    fs.appendFileSync(path.join(copy, 'src-renderer', 'src', 'main.tsx'), "\nconsole.debug('build probe');\n");
    const [b1, b2] = await Promise.all([build(), build()]);
    expect(b1.code, b1.out).toBe(0);
    expect(b2.code, b2.out).toBe(0);
    expect([b1.out, b2.out].filter((o) => o.includes('sources changed: building out/'))).toHaveLength(1);
    const pageBuilt = fs.readFileSync(path.join(copy, 'out', 'renderer', 'index.html'), 'utf8');
    expect(scriptOf(pageBuilt)).not.toBe(scriptA);

    // The running instance still serves the page it started with, and that page's script.
    expect(await (await a.get('/')).text()).toBe(pageA);
    expect((await a.get(scriptA)).status).toBe(200);

    // A new instance serves the new build, and starting it left the first one's files in place.
    const b = await startWeb('b');
    expect(await (await b.get('/')).text()).toBe(pageBuilt);
    expect((await b.get(scriptOf(pageBuilt))).status).toBe(200);
    expect((await a.get(scriptA)).status).toBe(200);

    // Once the first instance has stopped, the next start removes its copy.
    const runs = path.join(copy, '.tmp', 'out', 'runs');
    expect(fs.readdirSync(runs)).toHaveLength(2);
    a.child.kill('SIGTERM');
    await new Promise((r) => a.child.once('exit', r));
    await startWeb('c');
    expect(fs.readdirSync(runs)).toHaveLength(1);
    expect(spawnSync('git', ['check-ignore', '-q', '.tmp/out/runs'], { cwd: REPO_ROOT }).status).toBe(0);
  });
});
