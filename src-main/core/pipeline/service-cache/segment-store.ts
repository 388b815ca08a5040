import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import { shotCounts } from '../../library/shot-store';
import { applyClipEvent } from '../../library/clips-repository';
import { createSegmentPlanStore } from './segment-plan-store';
import { createSegmentResultsStore } from './segment-results-store';
import { createServiceTaskStore } from './service-task-store';
import { createTensorUploadStore } from './tensor-upload-store';

/**
 * The service cache (migration 0004) as the stages hold it: the plans of segments
 * (segment-plan-store.ts), their uploads (tensor-upload-store.ts), tasks (service-task-store.ts) and
 * results (segment-results-store.ts) composed into one store, with how complete a clip's index is.
 * Nothing else writes these tables; statements are compiled once per connection
 * (catalog/statements.ts): the upload, submit and poll stages run them per segment and per poll.
 */
export function createSegmentStore(db: CatalogDb) {
  const plans = createSegmentPlanStore(db);
  const tasks = createServiceTaskStore(db);
  return {
    ...plans,
    ...createTensorUploadStore(db, plans.segmentsOf),
    ...tasks,
    ...createSegmentResultsStore(db, tasks.setTaskStatus),

    /** A clip's segments with a profile (the Jobs view's count). */
    segmentCount(clipId: number, profileId: string): number {
      return (statement(db, 'SELECT COUNT(*) AS n FROM segments WHERE clip_id = ? AND profile_id = ?').get(clipId, profileId) as { n: number }).n;
    },

    /** How complete a clip's index is: every segment needs an embedding and tags; every shot a segment. */
    coverage(clipId: number, profileId: string): { shots: number; shotsWithSegments: number; segments: number; embedded: number; tagged: number } {
      const counts = statement(
        db,
        `SELECT
             (SELECT COUNT(DISTINCT shot_id) FROM segments WHERE clip_id = @c AND profile_id = @p) AS shotsWithSegments,
             (SELECT COUNT(*) FROM segments WHERE clip_id = @c AND profile_id = @p) AS segments,
             (SELECT COUNT(*) FROM segments s JOIN embeddings e ON e.segment_id = s.id WHERE s.clip_id = @c AND s.profile_id = @p) AS embedded,
             (SELECT COUNT(*) FROM segments s JOIN service_tags t ON t.segment_id = s.id WHERE s.clip_id = @c AND s.profile_id = @p) AS tagged`,
      ).get({ c: clipId, p: profileId }) as { shotsWithSegments: number; segments: number; embedded: number; tagged: number };
      // The shots are the library's (shot-store.ts, the owner of `shots`).
      return { shots: shotCounts(db, [clipId]).get(clipId) ?? 0, ...counts };
    },

    markIndexed(clipId: number, profileId: string): void {
      applyClipEvent(db, clipId, { type: 'indexed' }, {}, { indexedProfile: profileId });
    },

    clearIndexed(clipId: number): void {
      applyClipEvent(db, clipId, { type: 'indexCleared' });
    },
  };
}

export type SegmentStore = ReturnType<typeof createSegmentStore>;
