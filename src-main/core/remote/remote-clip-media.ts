import { AppError, toAppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { getClipRow } from '../library/clip-store';
import { shotsOfClip } from '../library/shot-store';
import { probeFile, type ProbeOutcome } from '../media/probe';
import { renderSeekStills } from '../media/stills';
import { discardThumbnails, FILMSTRIP_FRAMES, planThumbnails, saveThumbnails } from '../pipeline/stages/clip-media';
import { DEFAULT_REMOTE_DEADLINES, withRemoteInput, type RemoteAccess } from './remote-input';

/**
 * ffprobe on an address, through the relay: what a remote clip is (duration, picture, rate). An
 * address Reelscout cannot read as a video file is refused with the reason (refused by the
 * address rules, a playlist, no answer, not a video, no picture), before anything else is done.
 */
export async function probeRemote(url: string, access: RemoteAccess, o: { ffprobe?: string; signal?: AbortSignal }): Promise<{ probe: ProbeOutcome; bytesRead: number }> {
  const deadlineMs = access.deadlines?.probeMs ?? DEFAULT_REMOTE_DEADLINES.probeMs;
  let run: { value: ProbeOutcome; bytesRead: number };
  try {
    run = await withRemoteInput(url, access, { signal: o.signal, deadlineMs }, (input, signal) => probeFile(input.path, { ffprobe: o.ffprobe, inputArgs: input.args, signal }));
  } catch (e) {
    const err = toAppError(e, 'media');
    if (err.kind !== 'media') throw err;
    throw new AppError('media', `no video Reelscout can read at this address: ${err.message}`, { cause: e });
  }
  if (!run.value.info.hasVideo) throw new AppError('media', 'the address holds no picture (sound only?)');
  return { probe: run.value, bytesRead: run.bytesRead };
}

/**
 * The poster and the filmstrip of a remote clip, saved like any clip's (clip-media's
 * saveThumbnails, through the thumbnails' store): 12 exact seeks by range requests, on a copy of
 * the file when the server does not take them. Returns the bytes read from the address.
 */
export async function makeRemoteStills(
  db: CatalogDb,
  clipId: number,
  access: RemoteAccess,
  o: { cacheDir: string; ffmpeg: string; signal?: AbortSignal },
): Promise<{ bytesRead: number }> {
  const row = getClipRow(db, clipId);
  if (!row.source_url) throw new AppError('internal', `clip ${clipId} does not live at an address`);
  const shot = shotsOfClip(db, clipId)[0];
  const plan = planThumbnails(db, clipId, o.cacheDir);
  const d = row.duration_s ?? 0;
  const tiles = d > 0 ? FILMSTRIP_FRAMES : 1;
  const posterTile = Math.floor(tiles / 2);
  const deadlineMs = access.deadlines?.stillsMs ?? DEFAULT_REMOTE_DEADLINES.stillsMs;
  try {
    const times = Array.from({ length: tiles }, (_, k) => (d * (k + 0.5)) / tiles);
    const run = await withRemoteInput(row.source_url, access, { signal: o.signal, deadlineMs, seeks: true }, (input, signal) =>
      renderSeekStills(input.path, times, posterTile, plan.request.outDir, { ffmpeg: o.ffmpeg, inputArgs: input.args, signal }),
    );
    saveThumbnails(db, plan, run.value, [shot?.id ?? null]);
    return { bytesRead: run.bytesRead };
  } catch (e) {
    discardThumbnails(plan);
    throw e;
  }
}
