import type { marksMethods } from '../../../src-shared/contract/marks';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import { addKeywords, clipMarks, deleteRange, rate, removeKeyword, saveRange, updateRange } from './marks-repository';
import { keywordCounts } from './keyword-store';
import { clipsOfRanges, getRange } from './range-store';

/**
 * Ratings, ranges and keywords over RPC; every change calls `saved` (the app checkpoints the
 * catalog's journal) and tells the views to re-query.
 */
export function createMarksHandlers(db: CatalogDb, events: EventBus, saved: () => void = () => {}): HandlersFor<typeof marksMethods> {
  const changed = (clipIds: number[]) => {
    saved();
    events.emit('catalog.changed', { reason: 'marks', clipIds });
  };
  const clipsOf = (t: { clipIds: number[]; rangeIds: number[] }) => [...t.clipIds, ...clipsOfRanges(db, t.rangeIds)];
  return {
    'marks.forClip': ({ clipId }) => clipMarks(db, clipId),
    'marks.rate': (a) => {
      const updated = rate(db, a, a.rating);
      changed(clipsOf(a));
      return { updated };
    },
    'marks.addKeywords': (a) => {
      const updated = addKeywords(db, a, a.keywords);
      changed(clipsOf(a));
      return { updated };
    },
    'marks.removeKeyword': (a) => {
      const updated = removeKeyword(db, a, a.keyword);
      changed(clipsOf(a));
      return { updated };
    },
    'marks.saveRange': (a) => {
      const r = saveRange(db, a);
      changed([a.clipId]);
      return r;
    },
    'marks.updateRange': ({ rangeId, name, note }) => {
      const r = updateRange(db, rangeId, { name, note });
      changed([r.clipId]);
      return r;
    },
    'marks.deleteRange': ({ rangeId }) => {
      const { clipId } = getRange(db, rangeId);
      deleteRange(db, rangeId);
      changed([clipId]);
      return { ok: true as const };
    },
    'marks.keywords': () => ({ keywords: keywordCounts(db) }),
  };
}
