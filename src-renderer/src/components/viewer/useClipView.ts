import { useCallback, useEffect, useState } from 'react';
import type { Result } from '../../../../src-shared/contract';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import type { ClipPlayback } from '../../../../src-shared/contract/playback';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import type { FaceFrames } from './FaceBoxes';

export type Spans = Result<'search.clipTags'>['spans'];

/**
 * The clip the viewer shows, what plays it (original or proxy) and the tags along it, reloaded
 * whenever the catalog says the clip changed (a drive unplugged or back, a proxy made).
 */
export function useClipView(
  clipId: number,
  onError: (message: string) => void,
): { clip: ClipDetail | null; spans: Spans; playback: ClipPlayback | null; reloadPlayback: () => Promise<ClipPlayback | null> } {
  const [clip, setClip] = useState<ClipDetail | null>(null);
  const [playback, setPlayback] = useState<ClipPlayback | null>(null);
  const [spans, setSpans] = useState<Spans>([]);
  useEffect(() => {
    let live = true;
    const load = () => {
      api.call('library.get', { clipId }).then((c) => live && setClip(c)).catch((e: AppError) => live && onError(e.message));
      api.call('search.clipTags', { clipId }).then((r) => live && setSpans(r.spans)).catch(() => undefined);
      api.call('playback.get', { clipId }).then((p) => live && setPlayback(p)).catch((e: AppError) => live && onError(e.message));
    };
    load();
    const off = api.on('catalog.changed', (p) => {
      if (!p.clipIds || p.clipIds.includes(clipId)) load();
    });
    return () => {
      live = false;
      off();
    };
  }, [clipId, onError]);
  // The player failed on its source (a file gone while playing, a proxy emptied): ask again, the answer may be another source.
  const reloadPlayback = useCallback(
    () =>
      api.call('playback.get', { clipId }).then(
        (p) => {
          setPlayback(p);
          return p;
        },
        () => null,
      ),
    [clipId],
  );
  return { clip, spans, playback, reloadPlayback };
}

/**
 * A conformed clip's presentation times (`playback.pictureTimes`, read once by main): undefined
 * while they are asked for, null for a clip counted at its own rate or when they cannot be read
 * (its frames are then taken as pictures at k / rate, as before the times were known).
 */
export function usePictureTimes(clipId: number, conformed: boolean | null | undefined): readonly number[] | null | undefined {
  const [times, setTimes] = useState<readonly number[] | null | undefined>(undefined);
  useEffect(() => {
    setTimes(undefined);
    if (conformed === undefined) return;
    if (!conformed) return setTimes(null);
    let live = true;
    api
      .call('playback.pictureTimes', { clipId })
      .then((r) => live && setTimes(r.times))
      .catch(() => live && setTimes(null));
    return () => {
      live = false;
    };
  }, [clipId, conformed]);
  return times;
}

/** The faces found in the shot under the playhead (none until they arrive, none between shots). */
export function useShotFaces(shotId: number | null): FaceFrames {
  const [faces, setFaces] = useState<FaceFrames>([]);
  useEffect(() => {
    setFaces([]);
    if (shotId === null) return;
    let live = true;
    api
      .call('search.faces', { shotId })
      .then((r) => live && setFaces(r.frames))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [shotId]);
  return faces;
}
