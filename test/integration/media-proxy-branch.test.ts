import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClipDecoder } from '../../src-main/core/media/clip-decoder';
import { ffPath } from '../../src-main/core/media/ffmpeg-locate';
import { proxyGop, type ProxyRequest } from '../../src-main/core/media/proxy-branch';
import { tempDir } from '../helpers/paths';

/** One second at 25 fps of a test picture with a tone, `size` stored with sample aspect `sar`. */
function clip(file: string, size: string, sar: string): void {
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=1`, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1:sample_rate=48000',
    '-vf', `setsar=${sar}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file,
  ]);
}

function videoOf(file: string): { width: number; height: number; sample_aspect_ratio?: string; nb_read_packets: string } {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=width,height,sample_aspect_ratio,nb_read_packets', '-of', 'json', file]);
  return (JSON.parse(out.toString()) as { streams: ReturnType<typeof videoOf>[] }).streams[0]!;
}

async function proxyOf(src: string, out: string): Promise<void> {
  const proxy: ProxyRequest = { outFile: out, height: 540, videoKbps: 1500, gop: proxyGop(25), audio: true, threads: 1 };
  await new ClipDecoder({ filePath: src, startS: 0, outputs: [], audioRate: null, proxy }, { onFrame: () => {}, onAudio: () => {} }).run();
}

describe('the proxy branch on real ffmpeg', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir('reelscout-proxy-branch-');
  });
  afterAll(() => tmp?.cleanup());

  it('makes square pixels at the displayed width in its one scale, 540 lines at most, never upscaled, every frame kept', async () => {
    // PAL 16:9 (720x576 shown as 1024x576), and square-pixel 360p that stays as it is.
    for (const [size, sar, want] of [['720x576', '64/45', [960, 540]], ['640x360', '1/1', [640, 360]]] as const) {
      const src = path.join(tmp.dir, `src-${size}.mp4`);
      const out = path.join(tmp.dir, `proxy-${size}.mp4`);
      clip(src, size, sar);
      await proxyOf(src, out);
      const v = videoOf(out);
      expect([v.width, v.height], size).toEqual(want);
      expect(v.sample_aspect_ratio ?? '1:1', size).toBe('1:1');
      expect(v.nb_read_packets, size).toBe(videoOf(src).nb_read_packets);
    }
  });
});
