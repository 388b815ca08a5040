import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

const ELECTRON_FREE = ['src-main/core', 'src-main/web', 'src-shared', 'src-renderer/src'];
const IMPORT_ELECTRON = /(?:from\s+['"]electron(?:\/[^'"]*)?['"]|require\(\s*['"]electron(?:\/[^'"]*)?['"]\s*\)|import\(\s*['"]electron['"]\s*\))/;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx|js|cjs|mjs)$/.test(e.name) ? [p] : [];
  });
}

describe('layering: core runs without Electron', () => {
  it('no file under src-main/core (nor web, shared, renderer) imports electron', () => {
    const files = ELECTRON_FREE.flatMap((d) => sourceFiles(path.join(REPO_ROOT, d)));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) => IMPORT_ELECTRON.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(REPO_ROOT, f))).toEqual([]);
  });

  it('the Electron glue does import it (so the check above is looking at the right thing)', () => {
    expect(IMPORT_ELECTRON.test(fs.readFileSync(path.join(REPO_ROOT, 'src-main/index.ts'), 'utf8'))).toBe(true);
  });

  it('the lint rule rejects an electron import in core', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const [bad] = await eslint.lintText("import { app } from 'electron';\nexport const x = app;\n", { filePath: path.join(REPO_ROOT, 'src-main/core/x.ts') });
    expect(bad!.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    const [ok] = await eslint.lintText("import { app } from 'electron';\nexport const x = app;\n", { filePath: path.join(REPO_ROOT, 'src-main/ipc/x.ts') });
    expect(ok!.messages.map((m) => m.ruleId)).not.toContain('no-restricted-imports');
  });

  it('the build emits main, web, preload and renderer bundles, and the sandboxed preload requires only electron', () => {
    for (const f of ['out/main/index.js', 'out/main/web.js', 'out/preload/index.js', 'out/renderer/index.html']) {
      expect(fs.existsSync(path.join(REPO_ROOT, f)), f).toBe(true);
    }
    const preload = fs.readFileSync(path.join(REPO_ROOT, 'out/preload/index.js'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
  });
});
