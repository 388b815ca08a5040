import { z } from 'zod';
import type { CatalogDb } from '../../catalog/open-catalog';
import type { EmbeddingSpace } from '../index/embedding-space';
import type { ScopeSegment } from './people-scope';

const segmentRow = z.object({
  segmentId: z.number(),
  shotId: z.number(),
  startS: z.number(),
  endS: z.number(),
  startFrame: z.number().nullable(),
  endFrame: z.number().nullable(),
});

/**
 * The segments an `@Name` search cuts down (query/people-scope.ts): a read model over segments and
 * embeddings, for search alone; it writes nothing.
 */
export function createPeopleScopeStore(db: CatalogDb) {
  const q = {
    // Read by the segments_clip index: an `@Name` search reads the segments of the clips the person is in, not the library's.
    ofClips: db.prepare(
      `SELECT s.id AS segmentId, s.shot_id AS shotId, s.start_s AS startS, s.end_s AS endS, s.start_frame AS startFrame, s.end_frame AS endFrame
         FROM segments s JOIN embeddings e ON e.segment_id = s.id AND e.model = ? AND e.region = ?
        WHERE s.clip_id IN (SELECT value FROM json_each(?))`,
    ),
    searchable: db.prepare('SELECT segment_id FROM embeddings WHERE model = ? AND region = ?').pluck(),
  };
  return {
    /** The searchable segments (an embedding in the space) of these clips. */
    segmentsOfClips(clipIds: readonly number[], space: EmbeddingSpace): ScopeSegment[] {
      if (clipIds.length === 0) return [];
      return q.ofClips.all(space.model, space.region, JSON.stringify(clipIds)).map((r) => segmentRow.parse(r));
    },
    /** Every searchable segment of the space: what `-@Tom` alone, with no other filter, lists from. */
    searchableSegmentIds(space: EmbeddingSpace): Set<number> {
      return new Set(z.array(z.number()).parse(q.searchable.all(space.model, space.region)));
    },
  };
}

export type PeopleScopeStore = ReturnType<typeof createPeopleScopeStore>;
