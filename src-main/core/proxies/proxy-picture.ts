import { PROXY_DEFAULTS, type ProxyPicture } from '../media/proxy-branch';
import { nativePlayback } from './native-playback';

/** What the catalog knows of a clip's picture and file (probe-parse.ts), for proxyPicture. */
export interface PictureFacts {
  container: string | null;
  videoCodec: string | null;
  pixFmt: string | null;
  /** Displayed lines (rotation applied). */
  height: number | null;
  rotation: number | null;
  /** The whole file's bits per second (the container's: picture and sound). */
  bitRate: number | null;
}

/** MP4 and MOV: the containers whose H.264 packets and times the proxy's MP4 holds as they are. */
const COPYABLE = new Set(['mp4', 'mov', 'm4v']);

/**
 * The tallest picture copied: H.264 up to 1080 lines decodes in software on any machine Chromium and
 * Electron run on, so offline playback of the copy costs what online playback of the original does.
 */
const COPY_MAX_LINES = 1080;

/**
 * A clip whose picture is no heavier than a proxy's, H.264 in 8-bit 4:2:0 in an MP4 or MOV file the
 * viewer plays, at most 1080 lines, unrotated, and the whole file within the proxy's bitrate (picture
 * and sound), gets its picture copied into its proxy instead of encoded: no x264, no scale, and its
 * frames and presentation times are the original's by construction (VFR too). Such a file is at most
 * a proxy's size an hour, and re-encoding it to 540p would spend the proxy's whole cost to lose lines
 * (one thread, bundled ffmpeg 4.1: 1080p at 1.2 Mbit/s, scale and x264 2.6 ms a frame beside its
 * decode's 2.5; 720p at 0.4 Mbit/s, 2.1 beside 0.9); its copy keeps them. The player shows it as it shows the original: the same coded pictures,
 * pixel aspect (the stream's own; the player applies it) and keyframes, so steps and reverse play on
 * it offline cost what they cost on the original online. A rotated clip is left to the encode: its
 * display matrix would have to survive the copy's dropped metadata. Sound follows proxyAudio as for
 * any proxy. An unknown fact is a "no".
 */
export function proxyPicture(f: PictureFacts): ProxyPicture {
  const budget = (PROXY_DEFAULTS.videoKbps + PROXY_DEFAULTS.audioKbps) * 1000;
  const playable = nativePlayback({ container: f.container, videoCodec: f.videoCodec, pixFmt: f.pixFmt, audioCodec: null }).ok;
  const copy =
    playable &&
    f.videoCodec === 'h264' &&
    COPYABLE.has((f.container ?? '').toLowerCase()) &&
    f.height !== null && f.height <= COPY_MAX_LINES &&
    f.rotation === 0 &&
    f.bitRate !== null && f.bitRate > 0 && f.bitRate <= budget;
  return copy ? 'copy' : 'encode';
}
