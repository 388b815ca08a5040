import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleTarget, locateTool } from '../../../src-main/core/media/ffmpeg-locate';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function fakeBin(dir: string, name: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return p;
}

/** A staged folder as scripts/stage-ffmpeg.mjs writes it: the binaries and their manifest. */
function stagedBundle(resources: string): { ffmpeg: string; ffprobe: string } {
  const dir = path.join(resources, 'ffmpeg');
  fs.mkdirSync(dir, { recursive: true });
  const out = { ffmpeg: fakeBin(dir, 'ffmpeg'), ffprobe: fakeBin(dir, 'ffprobe') };
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      ffmpeg: { file: 'ffmpeg', package: '@ffmpeg-installer/x', version: '4.1.0', licence: 'GPL version 3 or later', arch: process.arch === 'x64' ? 'arm64' : 'x64' },
      ffprobe: { file: 'ffprobe', package: '@ffprobe-installer/x', version: '5.2.0', licence: 'LGPL version 2.1 or later', arch: process.arch },
    }),
  );
  return out;
}

describe('ffmpeg/ffprobe resolution order', () => {
  it('setting, then env, then bundled, then system', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const setting = fakeBin(t.dir, 'ffmpeg-setting');
    const env = fakeBin(t.dir, 'ffmpeg-env');
    const bundled = stagedBundle(path.join(t.dir, 'resources'));
    fs.mkdirSync(path.join(t.dir, 'sys'));
    const sys = fakeBin(path.join(t.dir, 'sys'), 'ffmpeg');
    const sysProbe = fakeBin(path.join(t.dir, 'sys'), 'ffprobe');
    const base = { PATH: path.join(t.dir, 'sys') };
    const withBundle = { resourcesPath: path.join(t.dir, 'resources'), appRoot: '/nonexistent' };
    const noBundle = { resourcesPath: path.join(t.dir, 'sys'), appRoot: '/nonexistent' };

    expect(locateTool('ffmpeg', { explicit: { ffmpeg: setting }, env: { ...base, FFMPEG_PATH: env }, ...withBundle })).toEqual({ path: setting, source: 'setting' });
    expect(locateTool('ffmpeg', { env: { ...base, FFMPEG_PATH: env }, ...withBundle })).toEqual({ path: env, source: 'env' });
    expect(locateTool('ffmpeg', { env: base, ...withBundle })).toEqual({ path: bundled.ffmpeg, source: 'bundled', origin: `@ffmpeg-installer/x 4.1.0, GPL version 3 or later, ${process.arch === 'x64' ? 'arm64' : 'x64'} build, run by Rosetta 2` });
    expect(locateTool('ffprobe', { env: base, ...withBundle })).toEqual({ path: bundled.ffprobe, source: 'bundled', origin: '@ffprobe-installer/x 5.2.0, LGPL version 2.1 or later' });
    expect(locateTool('ffmpeg', { env: base, ...noBundle })).toEqual({ path: sys, source: 'system' });
    expect(locateTool('ffprobe', { env: { ...base, FFPROBE_PATH: '' }, ...noBundle })).toEqual({ path: sysProbe, source: 'system' });
  });

  it('a manifest that names a file elsewhere, or a file that cannot run, is not the bundled tool', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const bundled = stagedBundle(path.join(t.dir, 'resources'));
    const manifest = path.join(t.dir, 'resources', 'ffmpeg', 'manifest.json');
    fs.writeFileSync(manifest, JSON.stringify({ ffmpeg: { file: '../../sys/ffmpeg' }, ffprobe: { file: 'ffprobe' } }));
    fs.chmodSync(bundled.ffprobe, 0o644);
    const loc = { resourcesPath: path.join(t.dir, 'resources'), appRoot: '/nonexistent', env: { PATH: '/nonexistent' } };
    expect(() => locateTool('ffmpeg', loc)).toThrow(expect.objectContaining({ kind: 'media' }));
    expect(() => locateTool('ffprobe', loc)).toThrow(expect.objectContaining({ kind: 'media' }));
  });

  it('a bad explicit path or nothing at all is a media error, not a crash', () => {
    expect(() => locateTool('ffmpeg', { explicit: { ffmpeg: '/nonexistent/ffmpeg' }, env: {} })).toThrow(expect.objectContaining({ kind: 'media' }));
    expect(() => locateTool('ffprobe', { env: { PATH: '/nonexistent' }, resourcesPath: '/nonexistent', appRoot: '/nonexistent' })).toThrow(expect.objectContaining({ kind: 'media' }));
  });

  it('in the repository, with no PATH and no FFMPEG_PATH, both are the ones npm install staged in build/ffmpeg', () => {
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const found = locateTool(tool, { env: {} });
      expect(found.source).toBe('bundled');
      expect(found.path).toBe(path.join(REPO_ROOT, 'build', 'ffmpeg', bundleTarget(), tool + (process.platform === 'win32' ? '.exe' : '')));
      expect(found.origin).toMatch(new RegExp(`^@${tool}-installer/${process.platform}-${process.arch} \\d`));
    }
  });
});
