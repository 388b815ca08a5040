import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

/**
 * Hole 8 of the hardening audit: `npm ci` warned that @electron/rebuild 4.2 and node-abi 4.40 need
 * Node >= 22.12 while `engines` says >= 20.19, so `npm start` could fail on a Node the README allows.
 * Every package the lock file installs must run on the oldest Node the project accepts.
 */
describe('engines', () => {
  it('every locked package accepts the oldest Node of package.json engines', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([p, m]) => p !== '' && m.engines && !Array.isArray(m.engines) && m.engines.node && !semver.satisfies(oldest, m.engines.node, { includePrerelease: true }))
      .map(([p, m]) => `${p} (${(m.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
    expect(Object.keys(lock.packages)).not.toContain('node_modules/@electron/rebuild');
  });
});
