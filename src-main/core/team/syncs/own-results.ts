import fs from 'node:fs';
import path from 'node:path';
import type { CatalogDb } from '../../catalog/open-catalog';
import { loadShotAnalysis, type StoredShotAnalysis } from '../../analysis/analysis-store';
import { thumbnailDir } from '../../library/clip-paths';
import { shotFacts, shotsOfClip } from '../../library/shot-store';
import { thumbnailsOf } from '../../library/thumbnail-store';
import type { SegmentStore } from '../../pipeline/service-cache/segment-store';
import type { ClipResults, PublishedAnalysis, PublishedThumbnail } from '../server/clip-results-store';

/**
 * A clip's results as this seat computed them, for the team (team/syncs/clip-sharing.ts publishes
 * them; team-results-copy.ts is the other way): shots with their faces (boxes only), motion and local
 * tags, every segment of the profile with its embedding and tags, and the posters and filmstrip with
 * their bytes. Null when the clip has no segments of the profile here (nothing to publish).
 */
export function ownResults(
  o: { db: CatalogDb; store: SegmentStore; cacheDir: string },
  clipId: number,
  as: { teamClipId: number; profileId: string; model: string; region: string },
): ClipResults | null {
  const segments = o.store.resultsOf(clipId, as.profileId);
  if (segments.length === 0) return null;
  return {
    clipId: as.teamClipId,
    profileId: as.profileId,
    model: as.model,
    region: as.region,
    shots: shotsOfClip(o.db, clipId).map((s) => ({ ...shotFacts(s), analysis: publishedAnalysisOf(loadShotAnalysis(o.db, s.id)) })),
    thumbnails: pictures(o, clipId),
    segments,
  };
}

/** The clip's posters and filmstrip as this seat's decode made them, with their bytes. */
function pictures(o: { db: CatalogDb; cacheDir: string }, clipId: number): PublishedThumbnail[] {
  const root = thumbnailDir(o.cacheDir);
  return (thumbnailsOf(o.db, [clipId]).get(clipId) ?? []).flatMap((t) => {
    // The preview lane's keyframe poster is each seat's own; the decode's set is what is shared.
    if (t.kind === 'poster' && t.shot_id === null) return [];
    try {
      const image = fs.readFileSync(path.join(root, ...t.path.split('/')));
      return [{ shotIdx: t.shot_idx, kind: t.kind, fileName: path.basename(t.path), width: t.width, height: t.height, frames: t.frames, timeS: t.time_s, image }];
    } catch {
      return []; // the cache was cleared: the other seats keep their own poster
    }
  });
}

function publishedAnalysisOf(a: StoredShotAnalysis | null): PublishedAnalysis | null {
  if (!a) return null;
  return { faceModel: a.faceModel, framesSampled: a.framesSampled, faces: a.faces, motion: a.motion, localTags: a.localTags.map(({ category, value, confidence, magnitude }) => ({ category, value, confidence, magnitude })) };
}
