import { afterAll, describe, expect, it } from 'vitest';
import { storeAnalysis } from '../../../src-main/core/analysis/analysis-store';
import type { CameraMotion, Face, ShotAnalysis } from '../../../src-main/core/analysis/analysis-types';
import { createSearchFilterStore } from '../../../src-main/core/search/query/search-filter-store';
import { createSearchHandlers } from '../../../src-main/core/search/search-handlers';
import { createTagResolutionStore } from '../../../src-main/core/search/query/tag-resolution-store';
import { tempDir } from '../../helpers/paths';
import { insertClip, insertShot, insertVolume, openTestCatalog, TEST_SPACE } from '../../helpers/catalog/search-catalog';

const still: CameraMotion = { movement: 'static', magnitude: 0, confidence: 1, panSpeed: 0, tiltSpeed: 0, zoomRate: 0, jitter: 0, steps: 3, validSteps: 3 };
const face = (x: number, score: number): Face => ({ x, y: 0.2, w: 0.1, h: 0.15, score, landmarks: [x, 0.25, x + 0.05, 0.25, x + 0.025, 0.3, x, 0.32, x + 0.05, 0.32] });
const shot = (shotId: number, faces: ShotAnalysis['faces']): ShotAnalysis => ({
  shotId,
  startS: 0,
  endS: 2,
  frameTimes: faces.map((f) => f.timeS),
  chunks: [],
  faces,
  motion: still,
  localTags: [],
  singleFrameFallback: false,
});

describe("the viewer's face boxes (search.faces)", () => {
  const tmp = tempDir('rs-search-faces-');
  afterAll(() => tmp.cleanup());

  it("are the analysis store's faces of that shot, frame by frame, the most confident first, without landmarks", () => {
    const db = openTestCatalog(tmp.dir);
    const clip = insertClip(db, { volumeId: insertVolume(db, '/media/f'), relPath: 'faces.mov', durationS: 4 });
    const [a, b, empty] = [insertShot(db, clip, 0, 0, 2), insertShot(db, clip, 1, 2, 4), insertShot(db, clip, 2, 4, 6)];
    storeAnalysis(
      db,
      [
        // Frames written out of order, and the less confident face first: the read puts them in order.
        shot(a, [
          { frameIndex: 2, timeS: 1.0, faces: [face(0.6, 0.7)] },
          { frameIndex: 0, timeS: 0.0, faces: [face(0.1, 0.6), face(0.5, 0.9)] },
          { frameIndex: 1, timeS: 0.5, faces: [] },
        ]),
        shot(b, [{ frameIndex: 0, timeS: 2.0, faces: [face(0.3, 0.8)] }]),
        shot(empty, [{ frameIndex: 0, timeS: 4.0, faces: [] }]),
      ],
      { profileId: 'p', faceModel: '/models/yunet.onnx', now: 1 },
    );
    const h = createSearchHandlers({
      // Only the catalog's reads are exercised here.
      search: undefined as never,
      stores: { filters: createSearchFilterStore(db), tags: createTagResolutionStore(db) },
      db,
      space: () => TEST_SPACE,
    });
    const faces = (shotId: number) => h['search.faces']({ shotId }, { transport: 'test' });
    const box = (x: number, score: number) => ({ x, y: 0.2, w: 0.1, h: 0.15, score });
    expect(faces(a)).toEqual({
      frames: [
        { timeS: 0.0, faces: [box(0.5, 0.9), box(0.1, 0.6)] },
        { timeS: 1.0, faces: [box(0.6, 0.7)] },
      ],
    });
    expect(faces(b)).toEqual({ frames: [{ timeS: 2.0, faces: [box(0.3, 0.8)] }] });
    expect(faces(empty)).toEqual({ frames: [] });
    expect(faces(empty + 1)).toEqual({ frames: [] });
    db.close();
  });
});
