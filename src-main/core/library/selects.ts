import type { ArgsOut } from '../../../src-shared/contract';
import type { Range } from '../../../src-shared/contract/marks';
import type { Select, selectsMethods } from '../../../src-shared/contract/selects';
import { isAppError } from '../../../src-shared/errors';
import { clipTimebase, countingOf, framesToTimecode, frameToSeconds } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import { saveRange } from '../marks/marks-repository';
import { allRanges } from '../marks/range-store';
import { clipForExport } from './clip-store';
import { shotsOfClip } from './shot-store';
import { thumbnailsOf, toThumb } from './thumbnail-store';

/**
 * Selects: the library's saved ranges in one list (each with its clip's start timecode and the
 * poster of the shot it starts in), and search's moments saved as ranges. Ranges are the marks
 * module's (range-store.ts); this composes them with the clips' facts, which live above marks.
 */
export function listSelects(db: CatalogDb): Select[] {
  const ranges = allRanges(db);
  const clipIds = [...new Set(ranges.map((r) => r.clipId))];
  const thumbs = thumbnailsOf(db, clipIds);
  const clips = new Map(clipIds.map((id) => [id, { timecode: clipForExport(db, id).timecode, shots: shotsOfClip(db, id) }]));
  return ranges.map((r) => {
    const clip = clips.get(r.clipId)!;
    const posters = (thumbs.get(r.clipId) ?? []).filter((t) => t.kind === 'poster');
    const at = frameToSeconds(r.inFrame, r.rate);
    const shot = clip.shots.findLast((s) => s.start_s <= at + 1e-6);
    const poster = posters.find((t) => shot !== undefined && t.shot_id === shot.id) ?? posters[0];
    return { ...r, clipTimecode: clip.timecode, poster: poster ? toThumb(poster) : null };
  });
}

type Moment = ArgsOut<'selects.saveMoments'>['moments'][number];

/**
 * Each moment a range of its clip: its frames as search found them, at the rate an export of the
 * clip counts (build-export-document.ts), so the range exports exactly those frames. Unnamed
 * moments take the clip's name and their In timecode ("A001 10:00:03:00").
 */
export function saveMoments(db: CatalogDb, moments: readonly Moment[]): { saved: Range[]; skipped: { clipId: number; reason: string }[] } {
  const saved: Range[] = [];
  const skipped: { clipId: number; reason: string }[] = [];
  db.transaction(() => {
    for (const m of moments) {
      const clip = (() => {
        try {
          return clipForExport(db, m.clipId);
        } catch (e) {
          if (isAppError(e)) return e.message;
          throw e;
        }
      })();
      if (typeof clip === 'string') skipped.push({ clipId: m.clipId, reason: clip });
      else if (!clip.fps) skipped.push({ clipId: m.clipId, reason: `${clip.fileName} has not been read yet (no frame rate)` });
      else {
        const { rate } = countingOf(clip.fps, clip.vfr);
        const tb = clipTimebase(rate, clip.timecode);
        const { inFrame, outFrame } = m;
        const name = m.name ?? `${clip.fileName.replace(/\.[^.]+$/, '')} ${framesToTimecode(tb.startFrame + inFrame, rate, tb.dropFrame)}`;
        saved.push(saveRange(db, { clipId: m.clipId, inFrame, outFrame, rate, name, note: '', rating: null, keywords: [] }));
      }
    }
  })();
  return { saved, skipped };
}

/** Selects over RPC; a save calls `saved` (the app checkpoints the catalog's journal) and tells the views, as marks do. */
export function createSelectsHandlers(db: CatalogDb, events: EventBus, saved: () => void = () => {}): HandlersFor<typeof selectsMethods> {
  return {
    'selects.list': () => ({ selects: listSelects(db) }),
    'selects.saveMoments': ({ moments }) => {
      const r = saveMoments(db, moments);
      if (r.saved.length > 0) {
        saved();
        events.emit('catalog.changed', { reason: 'marks', clipIds: [...new Set(r.saved.map((s) => s.clipId))] });
      }
      return r;
    },
  };
}
