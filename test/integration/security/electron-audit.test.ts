import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

/** Doyensec's electronegativity over the sources: nothing above LOW that the README does not explain. */
describe('electronegativity', () => {
  it('finds nothing above LOW that is not explained in the README', () => {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'electronegativity.mjs')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 240_000 });
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { findings: number; aboveLow: number; unexplained: number };
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(last.findings).toBeGreaterThan(0); // the scan ran over real sources
    expect(last.unexplained).toBe(0);
  }, 300_000);
});
