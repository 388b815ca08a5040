import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { launchBrowser, SCREENSHOT_DIR } from '../harness';

/** The README's emulator section: its two shell blocks and the Settings it tells the reader to type. */
function readmeInstructions(): { emulator: string; web: string; baseUrl: string; key: string } {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The service emulator'), readme.indexOf('## Benchmarks'));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
  const emulator = blocks.find((b) => b.startsWith('npm run emulator'));
  const web = blocks.find((b) => b.startsWith('npm run start:web'));
  const settings = /set the Asia base URL to `([^`]+)` and the API\s+key to `([^`]+)`/.exec(section);
  if (!emulator || !web || !settings) throw new Error('README: emulator instructions not found');
  return { emulator, web, baseUrl: settings[1]!, key: settings[2]! };
}

/** Runs a README line in a shell of its own, as a reader pastes it; resolves with the first stdout line matching `ready`. */
function run(command: string, cwd: string, ready: RegExp): { child: ChildProcess; line: Promise<string> } {
  const child = spawn('sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_yes: 'true' } });
  let out = '';
  let err = '';
  const line = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = out.split('\n').find((l) => ready.test(l));
      if (m) resolve(m);
    });
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => reject(new Error(`"${command}" exited ${code}:\n${out}\n${err}`)));
  });
  return { child, line };
}

function stop(child: ChildProcess | undefined): void {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}

/**
 * Hole 8 of the hardening audit: the README's emulator key was refused by Settings. This copies the
 * project (tracked files, the installed node_modules linked), runs the README's two commands as
 * written, and follows its Settings instructions in Chromium until Test connection succeeds.
 */
describe('the README, followed verbatim', () => {
  const tmp = tempDir('rs-readme-');
  const procs: ChildProcess[] = [];
  afterAll(() => {
    for (const p of procs) stop(p);
    tmp.cleanup();
  });

  it('its emulator and web-mode commands start, and its Settings connect', { timeout: 240_000 }, async () => {
    const steps = readmeInstructions();
    const copy = path.join(tmp.dir, 'reelscout');
    for (const f of execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)) {
      if (!fs.existsSync(path.join(REPO_ROOT, f))) continue;
      fs.mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, f), path.join(copy, f));
    }
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));

    const emu = run(steps.emulator, copy, /listening on http:\/\//);
    procs.push(emu.child);
    expect(await emu.line).toMatch(new RegExp(`listening on ${steps.baseUrl.replace(/\./g, '\\.')}`));
    const web = run(steps.web, copy, /^Open: http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    procs.push(web.child);
    const openUrl = (await web.line).replace(/^Open: /, '').trim();

    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
      await page.goto(openUrl);
      await page.click('[data-nav="settings"]');
      await page.fill('#base-asia', steps.baseUrl);
      await page.fill('#api-key', steps.key);
      await page.click('[data-action="save-settings"]');
      await expect.poll(() => page.locator('[data-testid="save-status"]').innerText()).toBe('Saved');
      await page.click('[data-action="test-connection"]');
      await expect.poll(() => page.locator('[data-testid="test-result"]').innerText(), { timeout: 30_000 }).toMatch(/^Connected in \d+ ms/);
      expect(await page.locator('[data-testid="key-status"]').getAttribute('data-usable')).toBe('true');
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'readme-settings-connected.png') });
    } finally {
      await browser.close();
    }
  });
});
