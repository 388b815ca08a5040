import type { CatalogDb } from '../../catalog/open-catalog';
import { storeAnalysisRecords, type AnalysisRecord } from '../../analysis/analysis-store';
import { CAMERA_MOVEMENTS, LOCAL_TAG_CATEGORIES } from '../../analysis/analysis-types';
import { applyClipEvent } from '../../library/clips-repository';
import { replaceShots, shotsOfClip } from '../../library/shot-store';
import type { ClipResults, PublishedAnalysis, PublishedShot } from '../server/clip-results-store';
import { noteResultsFrom } from '../team-replica-store';
import type { SegmentStore } from '../../pipeline/service-cache/segment-store';
import { saveCopiedThumbnails } from '../../pipeline/stages/clip-media';

/**
 * Another seat's published results of a clip (team/syncs/clip-sharing.ts: an adoption before the
 * analysis, or an offline entry), written through the catalog's owners as if this seat had computed
 * them, in one SQLite transaction: shots, segments with their embeddings and tags, faces (boxes only),
 * motion and local tags, posters and filmstrip; the clip's link notes whose results they are.
 */
export function copyTeamResults(o: { db: CatalogDb; store: SegmentStore; cacheDir: string }, clipId: number, r: ClipResults & { publishedBy: string }): void {
  const { db } = o;
  db.transaction(() => {
    const same = replaceShots(db, clipId, r.shots.map(shotInput));
    applyClipEvent(db, clipId, { type: 'shotsDetected', sameShots: same });
    const shotIds = new Map(shotsOfClip(db, clipId).map((s) => [s.idx, s.id]));
    o.store.insertPublished(clipId, shotIds, r.segments, { model: r.model, region: r.region, profileId: r.profileId });
    // Faces, motion and local tags as the decoding seat found them (grouped by its face model);
    // faces as boxes only, without identities (embeddings are never published: clip-results-store.ts).
    const byModel = new Map<string, AnalysisRecord[]>();
    for (const shot of r.shots) {
      const shotId = shotIds.get(shot.idx);
      if (shotId === undefined || !shot.analysis) continue;
      const list = byModel.get(shot.analysis.faceModel) ?? [];
      list.push(analysisRecordOf(shotId, shot.analysis));
      byModel.set(shot.analysis.faceModel, list);
    }
    for (const [faceModel, records] of byModel) storeAnalysisRecords(db, records, { profileId: r.profileId, faceModel });
    if (r.thumbnails.length > 0) saveCopiedThumbnails(db, clipId, o.cacheDir, r.thumbnails, shotIds);
    noteResultsFrom(db, clipId, r.publishedBy);
  })();
}

/** Another seat's analysis, checked against this app's words: a movement or tag it does not know is left out. */
function analysisRecordOf(shotId: number, a: PublishedAnalysis): AnalysisRecord {
  const movement = CAMERA_MOVEMENTS.find((m) => m === a.motion.movement) ?? null;
  const localTags = a.localTags.flatMap((t) => {
    const category = LOCAL_TAG_CATEGORIES.find((c) => c === t.category);
    return category ? [{ category, value: t.value, confidence: t.confidence, magnitude: t.magnitude, source: 'local' as const }] : [];
  });
  return { shotId, framesSampled: a.framesSampled, faces: a.faces, motion: { ...a.motion, movement }, localTags };
}

function shotInput(s: PublishedShot) {
  return { idx: s.idx, startS: s.startS, endS: s.endS, startFrame: s.startFrame, endFrame: s.endFrame, cutScore: s.cutScore, transition: s.transition ?? undefined };
}
