import path from 'node:path';
import type { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { storeAnalysis } from '../../../src-main/core/analysis/analysis-store';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import type { PeopleService } from '../../../src-main/core/people/people-service';
import { insertClip, insertShot } from '../catalog/search-catalog';

export interface PeopleBench {
  db: CatalogDb;
  volume: number;
  pool: AnalysisPool;
  service: PeopleService;
}

/**
 * A clip catalogued (one shot), analysed with recognition on, stored, and handed to the people
 * service as the pipeline does: the people tests' way in, with real ffmpeg and the real models.
 */
export async function analyseForPeople(o: PeopleBench, file: string) {
  const src = await probeSource(file);
  const durationS = src.durationS!;
  const clipId = insertClip(o.db, { volumeId: o.volume, relPath: path.basename(file), durationS, fps: 25, width: src.width, height: src.height });
  const shotId = insertShot(o.db, clipId, 0, 0, durationS);
  const r = await analyzeClip({ filePath: file, shots: [{ id: shotId, startS: 0, endS: durationS }], pool: o.pool, source: src, settings: {}, retainTensors: false });
  storeAnalysis(o.db, r.shots, { profileId: r.profileId, faceModel: o.pool.modelPath });
  o.service.clipAnalysed(clipId);
  return { clipId, durationS, shots: r.shots };
}
