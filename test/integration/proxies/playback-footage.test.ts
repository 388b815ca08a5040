import { execFileSync, spawn } from 'node:child_process';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { footageFfmpeg, footageFfprobe } from '../../helpers/footage/footage-ffmpeg';
import { framePatternInstallScript, readFramePattern } from '../../helpers/footage/frame-pattern';
import { PLAYBACK_CLIP_NAMES, frameAtSeconds, frameStartSeconds, makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';

// The footage of the playback suite (issue 37) is only worth its name if each clip is the codec,
// profile, pixel format, container, rate and timecode it claims, and if every one of its frames,
// decoded and scaled as a browser would, reads back as its own frame number, in order.

/** Every video frame of a file as RGB at `width` (height kept in proportion), streamed: a 1280 wide clip is 250 MB whole. */
async function decodeFrames(file: string, width: number, height: number, onFrame: (rgb: Uint8Array) => void, vf = ''): Promise<number> {
  const size = width * height * 3;
  const ff = spawn(footageFfmpeg(), ['-v', 'error', '-i', file, '-map', '0:v:0', '-vf', `${vf}scale=${width}:${height}:flags=bilinear`, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Chunks (64 KB) gathered until a frame is whole, then joined once: joining at every chunk is quadratic.
  let chunks: Buffer[] = [];
  let held = 0;
  let count = 0;
  let stderr = '';
  ff.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  for await (const chunk of ff.stdout as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    held += chunk.length;
    if (held < size) continue;
    let joined = Buffer.concat(chunks);
    while (joined.length >= size) {
      onFrame(new Uint8Array(joined.subarray(0, size)));
      joined = joined.subarray(size);
      count++;
    }
    chunks = joined.length ? [joined] : [];
    held = joined.length;
  }
  const code = await new Promise<number | null>((resolve) => (ff.exitCode !== null ? resolve(ff.exitCode) : ff.on('close', resolve)));
  if (code !== 0 || held) throw new Error(`ffmpeg decode of ${file} failed (${code}): ${stderr}`);
  return count;
}

async function readAll(clip: PlaybackClip, width: number): Promise<(number | null)[]> {
  const height = Math.round((width * clip.height) / clip.width / 2) * 2;
  const read: (number | null)[] = [];
  await decodeFrames(clip.file, width, height, (rgb) => read.push(readFramePattern(rgb, width, height, 3)));
  return read;
}

interface Probe {
  streams: { codec_type: string; codec_name: string; profile?: string; pix_fmt?: string; width?: number; height?: number; r_frame_rate: string; avg_frame_rate: string; tags?: { timecode?: string } }[];
  format: { format_name: string; tags?: { major_brand?: string; timecode?: string; operational_pattern_ul?: string } };
}

function probe(file: string): Probe {
  return JSON.parse(execFileSync(footageFfprobe(), ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,profile,pix_fmt,width,height,r_frame_rate,avg_frame_rate:stream_tags=timecode:format=format_name:format_tags=major_brand,timecode,operational_pattern_ul', '-of', 'json', file]).toString()) as Probe;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('playback footage: each clip is the codec it claims, and every frame reads back as its number', () => {
  let clips: Map<string, PlaybackClip>;
  beforeAll(async () => {
    const started = Date.now();
    clips = new Map((await makePlaybackFootage()).map((c) => [c.name, c]));
    console.log(`playback footage ready in ${Date.now() - started} ms`);
  }, 300_000);

  it('holds the codec set of issue 37', () => {
    expect([...clips.values()].map((c) => `${c.probe.codec}/${c.probe.profile}`).sort()).toEqual(
      ['dnxhd/DNXHR HQ', 'h264/High', 'h264/High', 'h264/High', 'h264/High', 'h264/High 4:2:2', 'hevc/Main 10', 'mjpeg/Baseline', 'mpeg2video/4:2:2', 'prores/HQ'],
    );
    const rates = [...clips.values()].filter((c) => c.probe.codec === 'h264' && c.probe.pixFmt === 'yuv420p' && !c.vfr).map((c) => [c.rate.num / c.rate.den, c.dropFrame]);
    expect(rates).toEqual(expect.arrayContaining([[25, false], [30000 / 1001, true], [24000 / 1001, false]]));
    expect([...clips.values()].filter((c) => c.vfr)).toHaveLength(1);
  });

  for (const name of PLAYBACK_CLIP_NAMES) {
    it(`${name}: ffprobe reports its codec, profile, pixel format, size, container, rate, timecode and audio`, () => {
      const c = clips.get(name)!;
      const p = probe(c.file);
      const video = p.streams.find((s) => s.codec_type === 'video')!;
      expect({ codec: video.codec_name, profile: video.profile, pixFmt: video.pix_fmt, format: p.format.format_name, brand: p.format.tags?.major_brand })
        .toEqual({ brand: undefined, ...c.probe });
      expect([video.width, video.height]).toEqual([c.width, c.height]);
      // Constant rate: both of ffprobe's rates are the clip's. VFR: r_frame_rate is ffprobe's guess
      // from the shortest step (meaningless), the average lies between the 20 and 30 fps of its halves.
      const [num, den] = video.avg_frame_rate.split('/').map(Number) as [number, number];
      if (c.vfr) expect(num / den).toSatisfy((r: number) => r > 20 && r < 30);
      else expect([video.r_frame_rate, video.avg_frame_rate]).toEqual([`${c.rate.num}/${c.rate.den}`, `${c.rate.num}/${c.rate.den}`]);
      const timecode = p.format.tags?.timecode ?? p.streams.map((s) => s.tags?.timecode).find((t) => t !== undefined) ?? null;
      expect(timecode).toBe(c.startTimecode);
      expect(p.streams.filter((s) => s.codec_type === 'audio').map((s) => s.codec_name)).toEqual(c.audio ? [c.audio] : []);
      // MXF from ffmpeg's muxer: operational pattern OP1a (item complexity 01, package complexity 01).
      if (c.probe.format === 'mxf') expect(p.format.tags?.operational_pattern_ul).toMatch(/^060e2b34\.04010101\.0d010201\.0101/);
    });

    it(`${name}: every frame decoded at 320 and at 160 px wide reads 0..N-1 in order`, async () => {
      const c = clips.get(name)!;
      expect(await readAll(c, 320)).toEqual(range(c.frames));
      expect(await readAll(c, 160)).toEqual(range(c.frames));
    });
  }

  it('the VFR clip presents its frames at its presentation times', () => {
    const c = [...clips.values()].find((x) => x.vfr)!;
    const out = execFileSync(footageFfprobe(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'json', c.file]).toString();
    const pts = (JSON.parse(out) as { frames: { pts_time: string }[] }).frames.map((f) => Number(f.pts_time));
    expect(pts).toHaveLength(c.frames);
    pts.forEach((t, i) => expect(t).toBeCloseTo(c.ptsSeconds![i]!, 5));
    // Frame durations vary (30 fps with jitter, then 20 fps): the clip is really VFR.
    expect(new Set(c.ptsSeconds!.slice(1).map((t, i) => Math.round((t - c.ptsSeconds![i]!) * 90000))).size).toBeGreaterThanOrEqual(8);
    for (const f of [0, 1, 44, 45, 46, c.frames - 1]) expect(frameAtSeconds(c, frameStartSeconds(c, f))).toBe(f);
    expect(frameAtSeconds(c, (c.ptsSeconds![50]! + c.ptsSeconds![51]!) / 2)).toBe(50);
  });

  it('reads every frame of a clip scaled to 1280 px wide, and frames scaled to 4K', async () => {
    const c = clips.get('h264-2997df')!;
    expect(await readAll(c, 1280)).toEqual(range(c.frames));
    const read: (number | null)[] = [];
    await decodeFrames(clips.get('prores-hq')!.file, 3840, 2160, (rgb) => read.push(readFramePattern(rgb, 3840, 2160, 3)), 'select=eq(n\\,0)+eq(n\\,37)+eq(n\\,71),');
    expect(read).toEqual([0, 37, 71]);
  });

  it('fails rather than guesses: a blend of two frames, a flipped bit, a picture without the pattern', async () => {
    const c = clips.get('h264-25')!;
    const [w, h] = [320, 180];
    const frames: Uint8Array[] = [];
    await decodeFrames(c.file, w, h, (rgb) => frames.push(rgb));
    const blend = frames[40]!.map((v, i) => (v + frames[41]![i]!) >> 1);
    expect(readFramePattern(blend, w, h, 3)).toBeNull();
    // Frame 40 with the cell of its lowest bit (cell 17) painted white: parity no longer holds.
    const flipped = frames[40]!.slice();
    for (let y = 0; y < h / 8; y++) flipped.fill(255, (y * w + Math.floor((17 * w) / 21)) * 3, (y * w + Math.ceil((18 * w) / 21)) * 3);
    expect(readFramePattern(frames[40]!, w, h, 3)).toBe(40);
    expect(readFramePattern(flipped, w, h, 3)).toBeNull();
    expect(readFramePattern(new Uint8Array(w * h * 3), w, h, 3)).toBeNull();
    expect(readFramePattern(new Uint8Array(w * h * 3).fill(255), w, h, 3)).toBeNull();
  });

  it('the install script runs alone, as in a page, and reads RGBA as readFramePattern does', async () => {
    const c = clips.get('mjpeg-avi')!;
    const [w, h] = [480, 270];
    const page = vm.createContext({});
    vm.runInContext(framePatternInstallScript('readIt'), page);
    const inPage = (page as { readIt: unknown }).readIt as (d: Uint8ClampedArray, w: number, h: number, ch: number) => number | null;
    const read: (number | null)[] = [];
    await decodeFrames(c.file, w, h, (rgb) => {
      // RGBA as a canvas's getImageData gives it.
      const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
      for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) rgba.set(rgb.subarray(i, i + 3), j);
      const direct = readFramePattern(rgba, w, h, 4);
      expect(inPage(rgba, w, h, 4)).toBe(direct);
      read.push(direct);
    });
    expect(read).toEqual(range(c.frames));
  });
});
