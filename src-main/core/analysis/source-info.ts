import { AppError } from '../../../src-shared/errors';
import { probeFile } from '../media/probe';

/** What analysis needs to know about a clip before decoding it. */
export interface SourceInfo {
  /** Displayed size in stored pixels (rotation applied, SAR not). */
  width: number;
  height: number;
  /** Sample aspect ratio (pixel width / height) as displayed; 1 for square pixels. */
  sar: number;
  durationS: number | null;
  hasAudio: boolean;
}

/** Probes with the library's ffprobe wrapper: what a decode of a file outside the catalog needs. */
export async function probeSource(filePath: string, opts: { signal?: AbortSignal; ffprobe?: string } = {}): Promise<SourceInfo> {
  const { info } = await probeFile(filePath, opts);
  if (!info.hasVideo || !info.width || !info.height) throw new AppError('media', `${filePath} has no video stream to analyse`);
  return { width: info.width, height: info.height, sar: info.sar, durationS: info.durationS, hasAudio: info.hasAudio };
}
