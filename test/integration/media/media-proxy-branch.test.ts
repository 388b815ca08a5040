import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClipDecoder, type VideoOutput } from '../../../src-main/core/media/clip-decoder';
import { closeLastSample } from '../../../src-main/core/media/mp4/last-sample';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { proxyAudio, proxyGop, type ProxyAudio, type ProxyPicture, type ProxyRequest } from '../../../src-main/core/media/proxy-branch';
import { chooseProxyEncoder, encoderWorks, listedEncoders, proxyEncoderArgs, proxyEncoderCandidates, type ProxyEncoder } from '../../../src-main/core/media/proxy-encoder';
import { tempDir } from '../../helpers/paths';
import { x264Options } from '../../helpers/footage/x264-options';
import { burntInNumbers } from '../../helpers/footage/burnt-in';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';

/**
 * Two seconds at 25 fps of a test picture, `size` stored with sample aspect `sar`, and sound that
 * is silent but for a beep from 1 s (sample 48000 at 48 kHz), in `audio` (ffmpeg's options).
 */
function clip(file: string, size: string, sar: string, audio: string[] = ['-c:a', 'aac']): void {
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=2`,
    '-f', 'lavfi', '-i', "aevalsrc='if(between(t,1,1.1),sin(2*PI*1000*t),0)':s=48000:d=2",
    '-vf', `setsar=${sar}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...audio, file,
  ]);
}

function audioOf(file: string): { codec_name: string; channels: number } {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,channels', '-of', 'json', file]);
  return (JSON.parse(out.toString()) as { streams: ReturnType<typeof audioOf>[] }).streams[0]!;
}

/** The first sample (mono, 48 kHz, from the file's start) louder than a tenth of full scale. */
function beepAt(file: string): number {
  const pcm = execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'], { maxBuffer: 1 << 26 });
  const samples = new Float32Array(pcm.buffer, pcm.byteOffset, pcm.length / 4);
  return samples.findIndex((x) => Math.abs(x) > 0.1);
}

function videoOf(file: string): { width: number; height: number; sample_aspect_ratio?: string; nb_read_packets: string } {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=width,height,sample_aspect_ratio,nb_read_packets', '-of', 'json', file]);
  return (JSON.parse(out.toString()) as { streams: ReturnType<typeof videoOf>[] }).streams[0]!;
}

/** Every presentation time of the video, in order, as exact fractions of a second: [ticks, ticks per second]. */
function presentationTimes(file: string): [bigint, bigint][] {
  const probe = (entries: string) => execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', entries, '-of', 'csv=p=0', file]).toString().trim();
  const [num, den] = probe('stream=time_base').split('/').map(BigInt) as [bigint, bigint];
  return probe('packet=pts')
    .split('\n')
    .map((l) => BigInt(l.trim()) * num)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((t) => [t, den]);
}

/** Frames a decoder gets from the file (the bundled ffprobe decoding it: what the edit list lets through). */
function decodedFrames(file: string): number {
  return Number(execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file]).toString().trim());
}

/** The video's last two packets in presentation order: pts and duration (null when the file gives it none). */
function lastPackets(file: string): { pts: number; duration: number | null }[] {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts,duration', '-of', 'csv=p=0', file]).toString().trim();
  return out.split('\n').map((l) => l.split(',')).map(([pts, d]) => ({ pts: Number(pts), duration: d === undefined || d === 'N/A' ? null : Number(d) })).sort((a, b) => a.pts - b.pts).slice(-2);
}

async function proxyOf(src: string, out: string, audio: ProxyAudio = 'aac', fps: 25 | 'vfr' = 25, picture: ProxyPicture = 'encode', outputs: VideoOutput[] = []): Promise<void> {
  const proxy: ProxyRequest = { outFile: out, height: 540, videoKbps: 1500, gop: proxyGop(fps === 25 ? 25 : 30), audio, threads: 1, encoder: 'libx264', vfr: fps !== 25, fps: fps === 25 ? 25 : 30, picture };
  await new ClipDecoder({ filePath: src, startS: 0, outputs, audioRate: null, proxy }, { onFrame: () => {}, onAudio: () => {} }).run();
}

/** Each video packet's size and checksum, in file order (ffmpeg copying them to framemd5): the coded picture itself. */
function packetHashes(file: string): string[] {
  const out = execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'framemd5', '-']).toString();
  return out.split('\n').filter((l) => /^\d+,/.test(l)).map((l) => l.split(',').slice(4).map((x) => x.trim()).join(' '));
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
      // A constant-rate proxy's last picture has its duration (one frame on 1/rate): finishing it changes nothing.
      expect(await closeLastSample(out), size).toBe(false);
      expect(decodedFrames(out), size).toBe(Number(v.nb_read_packets));
    }
  });

  it("encodes with x264's ultrafast as the preset defines it, trellis off (the bundled ffmpeg 4.1 turns it on over the preset)", async () => {
    const src = path.join(tmp.dir, 'src-x264.mp4');
    const out = path.join(tmp.dir, 'proxy-x264.mp4');
    clip(src, '640x360', '1/1');
    await proxyOf(src, out);
    const o = x264Options(out);
    // x264's own ultrafast (common/base.c): no CABAC, deblocking, partitions, B-frames, mb-tree, AQ, trellis.
    const ultrafast = { cabac: '0', ref: '1', analyse: '0:0', me: 'dia', subme: '0', mixed_ref: '0', trellis: '0', '8x8dct': '0', bframes: '0', weightp: '0', rc_lookahead: '0', mbtree: '0', aq: '0' };
    expect(Object.fromEntries(Object.keys(ultrafast).map((k) => [k, o.get(k)]))).toEqual(ultrafast);
    expect(o.get('deblock')?.startsWith('0:')).toBe(true);
    // The proxy's own: its bitrate ceiling and keyframe interval (a third of a second at 25 fps), one thread.
    expect([o.get('bitrate'), o.get('vbv_maxrate'), o.get('keyint'), o.get('threads')]).toEqual(['1500', '2250', '8', '1']);
  });

  it('carries stereo AAC as it is and encodes PCM, the sound starting with the picture as in the original either way', async () => {
    for (const [name, audio] of [['aac.mp4', ['-c:a', 'aac', '-ac', '2']], ['aac.mov', ['-c:a', 'aac', '-ac', '2']], ['pcm.mov', ['-c:a', 'pcm_s16le', '-ac', '2']]] as const) {
      const src = path.join(tmp.dir, name);
      const out = path.join(tmp.dir, `proxy-${name}.mp4`);
      clip(src, '320x180', '1/1', [...audio]);
      const { codec_name, channels } = audioOf(src);
      const how = proxyAudio(codec_name, channels);
      expect(how, name).toBe(codec_name === 'aac' ? 'copy' : 'aac');
      await proxyOf(src, out, how);
      expect(audioOf(out), name).toMatchObject({ codec_name: 'aac', channels: 2 });
      const at = beepAt(src);
      expect(Math.abs(at - 48000), name).toBeLessThanOrEqual(2);
      expect(beepAt(out), name).toBe(at);
      expect(videoOf(out).nb_read_packets, name).toBe(videoOf(src).nb_read_packets);
    }
  });
});

describe('the proxy of a variable-rate clip', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir('reelscout-proxy-vfr-');
  });
  afterAll(() => tmp?.cleanup());

  it("keeps every presentation time of a VFR phone clip (30 fps with jitter, 20 fps half way, 1/90000 clock) exactly, and every picture once finished", async () => {
    const [phone] = await makePlaybackFootage(undefined, ['h264-vfr-phone']);
    const out = path.join(tmp.dir, 'proxy-vfr.mp4');
    await proxyOf(phone!.file, out, 'copy', 'vfr');
    const original = presentationTimes(phone!.file);
    // As the decode leaves it, the bundled ffmpeg 4.1 gives the last picture no duration (its clock is
    // finer than a millisecond) and the edit list hides it; the proxy's finish gives it one (finishProxy).
    const before = lastPackets(out);
    expect(before.at(-1)!.duration).toBeNull();
    expect(await closeLastSample(out)).toBe(true);
    const after = lastPackets(out);
    expect(after.at(-1)!.duration).toBe(after.at(-2)!.duration);
    expect(after.map((p) => p.pts)).toEqual(before.map((p) => p.pts));
    // Every picture is decoded now, as the original's; closing it again changes nothing.
    expect(decodedFrames(out)).toBe(phone!.frames);
    // Every picture carries its own: on the phone's 1/90000 clock x264 took 90,000 pictures a second for
    // its budget's pace, and the first pictures came out flat grey until its buffer filled.
    expect(await burntInNumbers(out)).toEqual(Array.from({ length: phone!.frames }, (_, i) => i));
    expect(decodedFrames(out)).toBe(decodedFrames(phone!.file));
    expect(await closeLastSample(out)).toBe(false);
    const proxy = presentationTimes(out);
    expect(original).toHaveLength(phone!.frames);
    // The generator's own times: the original is what the test thinks it is.
    expect(original.map(([t, d]) => Number(t) / Number(d))).toEqual(phone!.ptsSeconds!.map((s) => expect.closeTo(s, 9)));
    expect(proxy).toHaveLength(original.length);
    // Equal as fractions (a/b = c/d when ad = cb), whatever each file's time base.
    const off = proxy.flatMap(([t, d], i) => (t * original[i]![1] === original[i]![0] * d ? [] : [`${i}: ${t}/${d} vs ${original[i]![0]}/${original[i]![1]}`]));
    expect(off).toEqual([]);
  });
});

describe('a proxy whose picture is copied (the source already is one: proxies/proxy-picture.ts)', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir('reelscout-proxy-copy-');
  });
  afterAll(() => tmp?.cleanup());

  it('holds the original\'s coded pictures at its presentation times, B-frames and VFR alike, inside the analysis decode or alone', async () => {
    const footage = await makePlaybackFootage(undefined, ['h264-25', 'h264-vfr-phone']);
    const every: VideoOutput = { name: 'every', fps: 'every', geometry: { outWidth: 64, outHeight: 36, filter: 'scale=64:36' }, pixFmt: 'gray' };
    for (const c of footage) {
      for (const [how, outputs] of [['beside the analysis', [every]], ['alone', []]] as const) {
        const out = path.join(tmp.dir, `copy-${c.name}-${outputs.length}.mp4`);
        await proxyOf(c.file, out, 'copy', c.vfr ? 'vfr' : 25, 'copy', [...outputs]);
        const what = `${c.name} ${how}`;
        // No encode: the packets are the original's, byte for byte (x264 veryfast's, with B-frames).
        expect(packetHashes(out), what).toEqual(packetHashes(c.file));
        expect(x264Options(out).get('bframes'), what).not.toBe('0');
        const [proxy, original] = [presentationTimes(out), presentationTimes(c.file)];
        expect(proxy, what).toHaveLength(c.frames);
        const off = proxy.flatMap(([t, d], i) => (t * original[i]![1] === original[i]![0] * d ? [] : [`${i}: ${t}/${d} vs ${original[i]![0]}/${original[i]![1]}`]));
        expect(off, what).toEqual([]);
        // 4.1 writes a copied VFR picture's last sample with 1 tick, which hides it as a missing duration would: finishing the proxy gives it one.
        expect(await closeLastSample(out), what).toBe(c.vfr);
        expect(decodedFrames(out), what).toBe(c.frames);
        expect(await closeLastSample(out), what).toBe(false);
        expect(audioOf(out), what).toMatchObject({ codec_name: 'aac' });
      }
    }
  });
});

describe('the proxy encoder: the platform one where it works here, else x264', () => {
  it('prefers VideoToolbox on macOS and the GPU encoders on Windows, x264 last everywhere', () => {
    expect(proxyEncoderCandidates('darwin')).toEqual(['h264_videotoolbox', 'libx264']);
    expect(proxyEncoderCandidates('win32')).toEqual(['h264_mf', 'h264_nvenc', 'h264_qsv', 'h264_amf', 'libx264']);
    expect(proxyEncoderCandidates('linux')).toEqual(['libx264']);
  });

  it('gives every encoder the same keyframe interval and bitrate ceiling, and no B-frames', () => {
    const all: ProxyEncoder[] = ['h264_videotoolbox', 'h264_mf', 'h264_nvenc', 'h264_qsv', 'h264_amf', 'libx264'];
    for (const e of all) {
      const args = proxyEncoderArgs(e, { videoKbps: 1500, gop: 8 });
      expect(args.slice(0, 2), e).toEqual(['-c:v', e]);
      expect(args[args.indexOf('-g') + 1], e).toBe('8');
      expect(args[args.indexOf('-maxrate') + 1], e).toBe('2250k');
      // x264's ultrafast has none; the others are told.
      if (e !== 'libx264') expect(args[args.indexOf('-bf') + 1], e).toBe('0');
    }
  });

  it('passes over an encoder the build lists but this machine cannot run (no GPU here), and takes x264', async () => {
    // Debian's ffmpeg lists NVENC and Quick Sync; these machines have neither device.
    const system = '/usr/bin/ffmpeg';
    const listed = await listedEncoders(system);
    expect(listed.has('h264_nvenc') && listed.has('libx264')).toBe(true);
    expect(await encoderWorks(system, 'h264_nvenc')).toBe(false);
    expect(await encoderWorks(system, 'libx264')).toBe(true);
    expect(await chooseProxyEncoder(system, proxyEncoderCandidates('win32'))).toBe('libx264');
    // The bundled build the app runs, on this platform.
    expect(await chooseProxyEncoder(ffPath('ffmpeg'))).toBe('libx264');
  });
});
