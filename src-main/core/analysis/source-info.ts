import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import { probeFile } from '../media/probe';

/** What analysis needs to know about a clip before decoding it. */
export interface SourceInfo {
  /** Displayed size in stored pixels (rotation applied, SAR not). */
  width: number;
  height: number;
  /** Sample aspect ratio (pixel width / height); 1 for square pixels. */
  sar: number;
  durationS: number | null;
  hasAudio: boolean;
}

const sarStream = z.looseObject({ codec_type: z.string().optional(), sample_aspect_ratio: z.string().optional() });
const rawSchema = z.looseObject({ streams: z.array(sarStream).default([]) });

/** "128:117" -> 1.094; "0:1", "N/A", missing -> 1. */
export function parseSar(s: string | undefined): number {
  if (!s) return 1;
  const [a, b] = s.split(':').map(Number);
  if (!a || !b || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return 1;
  return a / b;
}

/** Probes with the library's ffprobe wrapper and reads the SAR it does not keep. */
export async function probeSource(filePath: string, opts: { signal?: AbortSignal; ffprobe?: string } = {}): Promise<SourceInfo> {
  const { info, raw } = await probeFile(filePath, opts);
  if (!info.hasVideo || !info.width || !info.height) throw new AppError('media', `${filePath} has no video stream to analyse`);
  const parsed = rawSchema.safeParse(raw);
  const video = parsed.success ? parsed.data.streams.find((s) => s.codec_type === 'video') : undefined;
  let sar = parseSar(video?.sample_aspect_ratio);
  // SAR describes stored pixels; after a quarter turn it applies to the other axis.
  if (info.rotation === 90 || info.rotation === 270) sar = 1 / sar;
  return { width: info.width, height: info.height, sar, durationS: info.durationS, hasAudio: info.hasAudio };
}
