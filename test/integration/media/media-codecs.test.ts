import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateTool } from '../../../src-main/core/media/ffmpeg-locate';
import { probeFile } from '../../../src-main/core/media/probe';
import { renderKeyframePoster } from '../../../src-main/core/media/stills';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { tempDir } from '../../helpers/paths';

// The codecs an editor's card holds, encoded by another ffmpeg (the system's), then read by the
// app's own tools: ffprobe's facts and a decoded picture of the right size.
const CASES: { name: string; size: string; args: string[]; codec: string; pixFmt: RegExp }[] = [
  { name: 'h264.mp4', size: '320x180', args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], codec: 'h264', pixFmt: /^yuv420p$/ },
  { name: 'hevc8.mp4', size: '320x180', args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-x265-params', 'log-level=error'], codec: 'hevc', pixFmt: /^yuv420p$/ },
  { name: 'hevc10.mov', size: '320x180', args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-x265-params', 'log-level=error'], codec: 'hevc', pixFmt: /^yuv420p10le$/ },
  { name: 'prores.mov', size: '320x180', args: ['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le'], codec: 'prores', pixFmt: /^yuv422p10le$/ },
  { name: 'dnxhr.mov', size: '1280x720', args: ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', 'yuv422p'], codec: 'dnxhd', pixFmt: /^yuv422p$/ },
  { name: 'vp9.webm', size: '320x180', args: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuv420p'], codec: 'vp9', pixFmt: /^yuv420p$/ },
  { name: 'av1.mp4', size: '320x180', args: ['-c:v', 'libaom-av1', '-cpu-used', '8', '-row-mt', '1', '-pix_fmt', 'yuv420p'], codec: 'av1', pixFmt: /^yuv420p$/ },
];

describe('the bundled ffmpeg and ffprobe read H.264, HEVC 8/10-bit, ProRes, DNxHR, VP9 and AV1', () => {
  const tmp = tempDir('rs-codecs-');
  afterAll(() => tmp.cleanup());

  it('uses the bundled pair here', () => {
    for (const tool of ['ffmpeg', 'ffprobe'] as const) expect(locateTool(tool).source).toBe('bundled');
  });

  for (const c of CASES) {
    it(`${c.codec} (${c.name})`, async () => {
      const file = path.join(tmp.dir, c.name);
      execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=s=${c.size}:r=25:d=0.4`, ...c.args, file]);
      const { info } = await probeFile(file);
      const [w, h] = c.size.split('x').map(Number);
      expect(info).toMatchObject({ videoCodec: c.codec, width: w, height: h });
      expect(info.pixFmt).toMatch(c.pixFmt);
      const poster = await renderKeyframePoster(file, 0, path.join(tmp.dir, `${c.name}-poster`), { width: 160 });
      expect(poster).toMatchObject({ width: 160, height: Math.round((160 * h!) / w! / 2) * 2 });
    }, 60_000);
  }
});
