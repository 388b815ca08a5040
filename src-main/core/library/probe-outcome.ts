import type { MediaInfo } from '../media/media-info';

export interface ProbeVerdict {
  status: 'probed' | 'unsupported';
  reason: string | null;
  errorKind: 'media' | null;
}

/** Frames larger than this are decoded fine but slowly: worth a word on the card. */
const LARGE_PIXELS = 4096 * 2304;

/**
 * What a successful ffprobe means for the catalog: footage ('probed', with notes worth showing),
 * or something that is not footage ('unsupported': audio only).
 */
export function verdictFor(info: MediaInfo): ProbeVerdict {
  if (!info.hasVideo) {
    return {
      status: 'unsupported',
      reason: info.hasAudio ? `audio only (${info.audioCodec ?? 'unknown codec'}): no video stream` : 'no video stream',
      errorKind: 'media',
    };
  }
  const notes: string[] = [];
  if (info.width && info.height && info.width * info.height > LARGE_PIXELS) {
    notes.push(`very large frame ${info.width}x${info.height}: thumbnails are downscaled`);
  }
  if (info.vfr) {
    // The average from the frames over the duration: a VFR clip's `fps` is the rate it was shot at (probe.ts), which the card shows beside this.
    const average = info.frameCount && info.durationS ? info.frameCount / info.durationS : null;
    notes.push(average ? `variable frame rate (${average.toFixed(2)} fps average)` : 'variable frame rate');
  }
  if (info.rotation) notes.push(`rotated ${info.rotation}° for display`);
  return { status: 'probed', reason: notes.length ? notes.join('; ') : null, errorKind: null };
}
