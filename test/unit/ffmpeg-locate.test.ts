import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locateTool } from '../../src-main/core/media/ffmpeg-locate';
import { tempDir } from '../helpers/paths';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function fakeBin(dir: string, name: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return p;
}

describe('ffmpeg/ffprobe resolution order', () => {
  it('setting, then env, then bundled, then system', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const setting = fakeBin(t.dir, 'ffmpeg-setting');
    const env = fakeBin(t.dir, 'ffmpeg-env');
    fs.mkdirSync(path.join(t.dir, 'bundle'));
    const bundled = fakeBin(path.join(t.dir, 'bundle'), 'ffmpeg');
    fakeBin(path.join(t.dir, 'bundle'), 'ffprobe');
    fs.mkdirSync(path.join(t.dir, 'sys'));
    const sys = fakeBin(path.join(t.dir, 'sys'), 'ffmpeg');
    const sysProbe = fakeBin(path.join(t.dir, 'sys'), 'ffprobe');
    const base = { PATH: path.join(t.dir, 'sys') };

    expect(locateTool('ffmpeg', { explicit: { ffmpeg: setting }, env: { ...base, FFMPEG_PATH: env }, bundledFfmpeg: () => bundled })).toEqual({ path: setting, source: 'setting' });
    expect(locateTool('ffmpeg', { env: { ...base, FFMPEG_PATH: env }, bundledFfmpeg: () => bundled })).toEqual({ path: env, source: 'env' });
    expect(locateTool('ffmpeg', { env: base, bundledFfmpeg: () => bundled })).toEqual({ path: bundled, source: 'bundled' });
    expect(locateTool('ffprobe', { env: base, bundledFfmpeg: () => bundled }).source).toBe('bundled');
    expect(locateTool('ffmpeg', { env: base, bundledFfmpeg: () => null })).toEqual({ path: sys, source: 'system' });
    expect(locateTool('ffprobe', { env: { ...base, FFPROBE_PATH: '' }, bundledFfmpeg: () => null })).toEqual({ path: sysProbe, source: 'system' });
  });

  it('a bad explicit path or nothing at all is a media error, not a crash', () => {
    expect(() => locateTool('ffmpeg', { explicit: { ffmpeg: '/nonexistent/ffmpeg' }, env: {} })).toThrow(expect.objectContaining({ kind: 'media' }));
    expect(() => locateTool('ffprobe', { env: { PATH: '/nonexistent' }, bundledFfmpeg: () => null })).toThrow(expect.objectContaining({ kind: 'media' }));
  });

  it('finds the real ffmpeg on this machine', () => {
    expect(locateTool('ffmpeg').path).toMatch(/ffmpeg$/);
  });
});
