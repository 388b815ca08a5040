import type { SegmentTag } from '../../../src-shared/contract/search';
import { AppError, toAppError } from '../../../src-shared/errors';
import { lastToolLine, plainToolFailure } from '../media/tool-words';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipAbsPath, getClipRow, type ClipRow } from '../library/clip-store';
import { runTool } from '../media/run-process';
import { tensorSourceOf } from '../pipeline/stages/analysis-stage';
import { decodeRange, planChunks } from '../pipeline/stages/shot-tensors';
import type { ShotFrames } from '../tensors/shot-chunks';
import { DEFAULT_REMOTE_DEADLINES, withRemoteInput, type MediaInput, type RemoteAccess } from '../remote/remote-input';
import type { ServiceClient, UploadTensorsRequest } from '../service/client';
import { tagVideoWithFallback } from '../service/fallback';
import type { NormalizedTags, TagField } from '../service/tags';
import { chunkRequestId, chunkUploadBody } from '../tensors/chunk-upload';
import type { TensorProfile } from '../tensors/tensor-profile';
import { tagLabel } from '../tags/tag-vocabulary';

export interface TagRangeDeps {
  db: CatalogDb;
  client: () => ServiceClient;
  ffmpeg: () => string;
  profile: TensorProfile;
  /** The address rules and timeouts for a clip added by URL, whose range main reads from the address. */
  remote: () => RemoteAccess;
  /**
   * Largest Base64 body sent to synchronous tagging. The spec names no request limit (413 is
   * "too large", size not shown); a range above this, or one the service answers 413 to, goes
   * through tensor mode instead, which the pipeline already sizes to the service's limits.
   */
  maxBase64Bytes?: number;
}

export const DEFAULT_MAX_BASE64_BYTES = 8 * 1024 * 1024;
const FIELDS: TagField[] = ['shotSize', 'cameraMovement', 'shootingAngle'];

/** The service's answer as the viewer shows tags: vocabulary labels, source "service". */
export function serviceTagsForDisplay(tags: NormalizedTags): SegmentTag[] {
  const out: SegmentTag[] = [];
  for (const field of FIELDS) {
    const t = tags[field] ?? tags.segments?.find((s) => s[field])?.[field];
    if (!t) continue;
    out.push({ field, value: tagLabel(field, t.canonical), canonical: t.canonical, source: 'service', confidence: t.confidence ?? null, other: null });
  }
  return out;
}

/**
 * The range as a small H.264 file (720p at most, the range's sound): what "Base64-encoded video
 * data" means for a moment of a long camera original, which is never sent whole.
 */
async function cutRange(ffmpeg: string, input: MediaInput, startS: number, endS: number, signal?: AbortSignal): Promise<Buffer> {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-ss', startS.toFixed(3), ...input.args, '-i', input.path, '-t', (endS - startS).toFixed(3)];
  args.push('-map', '0:v:0', '-map', '0:a:0?', '-vf', "scale='min(1280,iw)':-2", '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p');
  args.push('-c:a', 'aac', '-b:a', '96k', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4', 'pipe:1');
  const r = await runTool(ffmpeg, args, { signal, maxStdoutBytes: 512 * 1024 * 1024 });
  if (r.code !== 0 || r.stdout.length === 0) throw new AppError('media', `the range could not be cut from the video: ${plainToolFailure(r.stderr)}`, { cause: new Error(lastToolLine(r.stderr, r.code)) });
  return r.stdout;
}

/** Tensor mode for a range too large to send as a file: one upload + async tagging per chunk; the first chunk with tags answers. */
async function tagAsTensors(d: TagRangeDeps, clipId: number, frames: ShotFrames, signal?: AbortSignal): Promise<{ tags: NormalizedTags; bytes: number }> {
  const chunks = planChunks(frames, d.profile, d.profile.byteBudget);
  const client = d.client();
  let bytes = 0;
  for (const chunk of chunks) {
    // A request id of its own ("now" + time), so it never collides with the pipeline's uploads.
    const body = chunkUploadBody(chunk, 'tagging', `${chunkRequestId(d.profile, 'tagging', `now${clipId}`, chunk)}.${Date.now().toString(36)}`);
    bytes += body.video_input.data.length;
    const keys = await client.uploadTensors(body as unknown as UploadTensorsRequest, { signal });
    if (!keys.videoInputKey) throw new AppError('invalid', 'the service stored the tensors without a video_input key');
    const { requestId } = await client.tagVideoAsync({ tensor: { video_input_key: keys.videoInputKey, ...(keys.videoKwargsKey ? { video_kwargs_key: keys.videoKwargsKey } : {}) } }, { signal });
    const s = await client.pollAsyncTask(requestId, { signal });
    if (s.status === 'failed') throw new AppError('server', `tagging failed: ${s.errorMessage ?? 'no reason given'}`);
    if (s.tags && serviceTagsForDisplay(s.tags).length > 0) return { tags: s.tags, bytes };
  }
  return { tags: { other: {}, raw: null }, bytes };
}

/**
 * Reads the clip's media for `read`: its file, or for a clip added by URL the address through
 * main's relay (range requests, the address rules, the range deadline). Returns what `read` made
 * and the bytes read from the address (null for a file).
 */
async function readClip<V>(d: TagRangeDeps, row: ClipRow, signal: AbortSignal | undefined, read: (input: MediaInput, signal?: AbortSignal) => Promise<V>): Promise<{ value: V; bytesRead: number | null }> {
  if (!row.source_url) return { value: await read({ path: clipAbsPath(row), args: [] }, signal), bytesRead: null };
  const access = d.remote();
  const deadlineMs = access.deadlines?.rangeMs ?? DEFAULT_REMOTE_DEADLINES.rangeMs;
  return withRemoteInput(row.source_url, access, { signal, deadlineMs, seeks: true }, read);
}

/**
 * "Tag this range now": In to Out of a catalogued clip to the service's tagging, answered at once.
 * Small ranges go as a Base64 file to synchronous tagging; larger ones, or a 413, as tensors. A
 * clip added by URL is cut from its address (the file's index and the bytes of the range, by range
 * requests; from a copy of the file when the server does not take them); the address itself is
 * not sent, since the service would tag the whole video.
 */
export async function tagRangeNow(
  d: TagRangeDeps,
  clipId: number,
  startS: number,
  endS: number,
  signal?: AbortSignal,
): Promise<{ tags: SegmentTag[]; via: 'base64' | 'tensor'; bytes: number; bytesRead: number | null }> {
  const row = getClipRow(d.db, clipId);
  if (!row.online || row.missing_at !== null) throw new AppError('not_found', `${row.file_name} is not reachable (drive disconnected or file moved)`);
  if (!row.duration_s) throw new AppError('media', `${row.file_name} has not been read yet`);
  const end = Math.min(endS, row.duration_s);
  if (end - startS <= 0) throw new AppError('invalid', 'the range is empty');
  // The service refuses a range without a whole frame (422); say so before cutting or sending anything.
  if (row.fps && (end - startS) * row.fps < 1 - 1e-6) {
    throw new AppError('invalid', `the range is shorter than one frame (${((end - startS) * 1000).toFixed(1)} ms at ${row.fps.toFixed(3)} fps): move Out at least one frame after In`);
  }
  const max = d.maxBase64Bytes ?? DEFAULT_MAX_BASE64_BYTES;
  const cut = await readClip(d, row, signal, (input, sig) => cutRange(d.ffmpeg(), input, startS, end, sig));
  const b64 = cut.value.toString('base64');
  if (b64.length <= max) {
    try {
      const r = await tagVideoWithFallback(d.client(), { base64: b64 }, { signal });
      return { tags: serviceTagsForDisplay(r.tags), via: 'base64', bytes: b64.length, bytesRead: cut.bytesRead };
    } catch (e) {
      if (!(e instanceof AppError) || e.kind !== 'too_large') throw e;
    }
  }
  const source = tensorSourceOf(row);
  const frames = await readClip(d, row, signal, (input, sig) =>
    decodeRange({ ...source, filePath: input.path, inputArgs: input.args }, { id: 0, startS, endS: end }, d.profile, { signal: sig, ffmpeg: d.ffmpeg() }).catch((e: unknown) => {
      // The decoder's failure names the relay's address and quotes ffmpeg: neither means anything to the editor.
      const err = toAppError(e, 'media');
      throw err.kind === 'media' ? new AppError('media', `the range could not be read from the video: ${plainToolFailure(err.message)}`, { cause: err }) : err;
    }),
  );
  const t = await tagAsTensors(d, clipId, frames.value, signal);
  const bytesRead = cut.bytesRead === null ? null : cut.bytesRead + (frames.bytesRead ?? 0);
  return { tags: serviceTagsForDisplay(t.tags), via: 'tensor', bytes: t.bytes, bytesRead };
}
