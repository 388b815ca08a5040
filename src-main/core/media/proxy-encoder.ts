import { runTool } from './run-process';

/**
 * Which H.264 encoder writes the viewing proxies. x264 (`ultrafast`, in the bundled ffmpeg) costs
 * more CPU than decoding a 1080p H.264 source (bench:index), so where the platform has an encoder of
 * its own off the CPU, that is preferred: VideoToolbox on macOS; on Windows, the GPU's encoder through
 * the bundled 4.1 build (NVENC, Quick Sync, AMF; Media Foundation's `h264_mf` from ffmpeg 4.3 when a
 * newer ffmpeg is set). Each candidate is tried once on a few generated frames: an encoder the build
 * lists can still lack its device or driver (a PC without that GPU, a VM), and then the next is tried,
 * x264 last, which always works. Linux stays on x264 (VA-API needs a device path and an upload filter
 * that differ per machine). Every candidate writes the same frames (passthrough, no B-frames), so a
 * proxy's frame numbers do not depend on which encoder wrote it.
 */

export type ProxyEncoder = 'h264_videotoolbox' | 'h264_mf' | 'h264_nvenc' | 'h264_qsv' | 'h264_amf' | 'libx264';

export function proxyEncoderCandidates(platform: NodeJS.Platform): ProxyEncoder[] {
  if (platform === 'darwin') return ['h264_videotoolbox', 'libx264'];
  if (platform === 'win32') return ['h264_mf', 'h264_nvenc', 'h264_qsv', 'h264_amf', 'libx264'];
  return ['libx264'];
}

/**
 * A VFR source's encoder counts time on the source's own clock (`-enc_time_base -1`; the MP4
 * track's timescale follows it): under passthrough its default is 1 / the filter graph's frame
 * rate, for a VFR clip its average rate (81000/3349 for the phone test clip), which moved every
 * presentation time by up to half a tick of it (3700/90000 s became 0.041346 s) and the viewer's
 * picture lookups with it. On the source's clock every original time survives exactly, whatever its
 * time base (1/90000, 1/600, 1/1000...). Constant-rate sources keep the default: their frames sit
 * on 1/rate already, and the bundled ffmpeg 4.1 given any encoder time base for a 25 fps MP4 with
 * a 1/12800 clock dropped its last frame (49 of 50; 5.1 kept all).
 */
const SOURCE_CLOCK = ['-enc_time_base', '-1'] as const;

/**
 * The encoder's own arguments for a proxy or a preview window (bitrate ceiling and keyframe
 * interval as x264's). `vfr`: the source is variable-rate, its pictures counted on its own clock
 * (SOURCE_CLOCK, 1/90000 for a phone), and `rate` its frame rate ("N/D" or a number) when known:
 * x264 took that clock's 90,000 a second for its budget's pace and gave each picture almost no
 * bits, so the first pictures came out flat grey until its buffer filled. Told the rate, it paces
 * the budget by it; the times stay the pictures' own.
 */
export function proxyEncoderArgs(encoder: ProxyEncoder, o: { videoKbps: number; gop: number; threads?: number; vfr?: { rate: string | null } | null }): string[] {
  return [...(o.vfr ? SOURCE_CLOCK : []), ...encoderArgs(encoder, o)];
}

function encoderArgs(encoder: ProxyEncoder, o: { videoKbps: number; gop: number; threads?: number; vfr?: { rate: string | null } | null }): string[] {
  const rate = ['-b:v', `${o.videoKbps}k`, '-maxrate', `${Math.round(o.videoKbps * 1.5)}k`, '-bufsize', `${o.videoKbps * 2}k`];
  const gop = ['-g', String(o.gop), '-bf', '0'];
  switch (encoder) {
    case 'libx264':
      // `-trellis 0` is ultrafast's own: the bundled ffmpeg 4.1's libx264 wrapper sets trellis=1
      // over the preset (the file's x264 SEI says so; 5.1 leaves it), the costliest step left in
      // ultrafast. On a 720p clip to 540p (one thread, CPU) 1.70 s with it, 1.13 s without
      // (decode and scale alone 0.68), the same size, PSNR 44.33 -> 44.22 dB.
      return [
        '-c:v', 'libx264', '-preset', 'ultrafast', '-trellis', '0', '-profile:v', 'high', '-pix_fmt', 'yuv420p', ...rate, '-g', String(o.gop), '-keyint_min', '1', '-sc_threshold', '0',
        ...(o.threads !== undefined ? ['-threads:v', String(o.threads)] : []),
        ...(o.vfr?.rate ? ['-x264-params', `fps=${o.vfr.rate}`] : []),
      ];
    case 'h264_videotoolbox':
      // Hardware only: a software fallback inside VideoToolbox would be slower than x264.
      return ['-c:v', 'h264_videotoolbox', '-allow_sw', '0', '-realtime', '1', '-profile:v', 'high', '-pix_fmt', 'yuv420p', ...rate, ...gop];
    case 'h264_mf':
      return ['-c:v', 'h264_mf', '-hw_encoding', '1', '-pix_fmt', 'nv12', ...rate, ...gop];
    case 'h264_nvenc':
      return ['-c:v', 'h264_nvenc', '-preset', 'fast', '-profile:v', 'high', '-pix_fmt', 'yuv420p', ...rate, ...gop];
    case 'h264_qsv':
      return ['-c:v', 'h264_qsv', '-preset', 'veryfast', '-pix_fmt', 'nv12', ...rate, ...gop];
    case 'h264_amf':
      return ['-c:v', 'h264_amf', '-quality', 'speed', '-pix_fmt', 'yuv420p', ...rate, ...gop];
  }
}

/** The encoders an ffmpeg build lists (`-encoders`). */
export async function listedEncoders(ffmpegPath: string): Promise<Set<string>> {
  const r = await runTool(ffmpegPath, ['-hide_banner', '-encoders'], { maxStdoutBytes: 1 << 20 });
  return new Set([...r.stdout.toString('utf8').matchAll(/^\s*V\S*\s+(\S+)/gm)].map((m) => m[1]!));
}

/** Whether the encoder writes a few frames here (its device and driver present). */
export async function encoderWorks(ffmpegPath: string, encoder: ProxyEncoder): Promise<boolean> {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=0.4', ...proxyEncoderArgs(encoder, { videoKbps: 500, gop: 8 }), '-f', 'null', '-'];
  const r = await runTool(ffmpegPath, args).catch(() => null);
  return r?.code === 0;
}

const chosen = new Map<string, Promise<ProxyEncoder>>();

/** The first candidate of the platform that the build lists and that works here; asked once per ffmpeg. */
export function chooseProxyEncoder(ffmpegPath: string, candidates: readonly ProxyEncoder[] = proxyEncoderCandidates(process.platform)): Promise<ProxyEncoder> {
  const key = `${ffmpegPath}\n${candidates.join(',')}`;
  let p = chosen.get(key);
  if (!p) {
    p = (async () => {
      const listed = await listedEncoders(ffmpegPath).catch(() => new Set<string>());
      for (const c of candidates) if (c !== 'libx264' && listed.has(c) && (await encoderWorks(ffmpegPath, c))) return c;
      return 'libx264' as const;
    })();
    chosen.set(key, p);
  }
  return p;
}
