import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { AnalysisPool } from '../../src-main/core/analysis/analysis-pool';
import { analysisOutputs, OUT_FACES } from '../../src-main/core/analysis/analysis-outputs';
import { DEFAULT_ANALYSIS_SETTINGS } from '../../src-main/core/analysis/analysis-settings';
import { probeSource } from '../../src-main/core/analysis/source-info';
import { identityFrameTask } from '../../src-main/core/analysis/pool-feed';
import { identifyFaces, identityPatch, l2normalize } from '../../src-main/core/analysis/workers/face-identity.cjs';
import { dot } from '../../src-main/core/people/grouping';
import { ClipDecoder } from '../../src-main/core/media/clip-decoder';
import { DEFAULT_TENSOR_PROFILE } from '../../src-main/core/tensors/tensor-profile';

/**
 * The face embedding model's int8 copy (scripts/models/quantize-face-embedding.sh), node's half:
 *
 *   calibrate FP32_ALL_OUTPUTS.onnx RANGES.json CLIP...   the range of every tensor of the float model
 *   check FP32.onnx INT8.onnx CLIP...                      how far the int8 embeddings are from the float ones
 *
 * The model's inputs are the app's own: each clip decoded as the analysis decodes it (faces at the
 * tensor grid's 2 fps, an identity frame at every one of them, not one in two), YuNet's faces, and
 * the crops face-identity.cjs makes of those above the floors (the same alignment, the same
 * normalisation). Even-numbered crops calibrate; `check` reports on the odd ones, which calibration
 * never saw, and on every pair of them (the grouping compares embeddings with each other).
 */

async function cropsOf(clips: readonly string[]): Promise<Float32Array[]> {
  const settings = { ...DEFAULT_ANALYSIS_SETTINGS, identityEvery: 1 };
  const pool = new AnalysisPool();
  const crops: Float32Array[] = [];
  try {
    for (const clip of clips) {
      const source = await probeSource(clip);
      const { outputs, faceGeom, identityGeom, identityOut, tensor } = analysisOutputs(source, DEFAULT_TENSOR_PROFILE, settings, false);
      const faceFrames: Uint8Array[] = [];
      const identityFrames: Uint8Array[] = [];
      const wanted = [outputs[OUT_FACES]!, outputs[identityOut!]!];
      await new ClipDecoder({ filePath: clip, startS: 0, outputs: wanted, audioRate: null, threads: 1 }, { onFrame: (o, f) => void (o === 0 ? faceFrames : identityFrames).push(f), onAudio: () => {} }).run();
      const g = faceGeom;
      const faces = await pool.detectFaces({
        width: g.outWidth,
        height: g.outHeight,
        contentWidth: g.content.width,
        contentHeight: g.content.height,
        frames: faceFrames,
        scoreThreshold: settings.faceScoreThreshold,
        nmsThreshold: settings.faceNmsThreshold,
        topK: settings.faceTopK,
      });
      const task = identityFrameTask(identityGeom!, tensor.disp.width, tensor.disp.height, settings, 'calibration');
      const before = crops.length;
      for (let k = 0; k < faces.length && k < identityFrames.length; k++) {
        if (faces[k]!.length === 0) continue;
        await identifyFaces(faces[k]!, identityPatch(identityFrames[k]!, faces[k]!, task), task, async (input) => {
          crops.push(input.slice());
          return new Float32Array(128).fill(1);
        });
      }
      console.log(`${path.basename(clip)}: ${crops.length - before} crops`);
    }
  } finally {
    await pool.close();
  }
  return crops;
}

async function session(model: string): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
}

function input(crop: Float32Array): ort.Tensor {
  return new ort.Tensor('float32', crop, [1, 3, 112, 112]);
}

async function calibrate(allOutputsModel: string, out: string, clips: readonly string[]): Promise<void> {
  const crops = (await cropsOf(clips)).filter((_, i) => i % 2 === 0);
  const s = await session(allOutputsModel);
  const ranges: Record<string, [number, number]> = {};
  const widen = (name: string, data: ArrayLike<number>) => {
    const r = (ranges[name] ??= [Infinity, -Infinity]);
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      if (v < r[0]) r[0] = v;
      if (v > r[1]) r[1] = v;
    }
  };
  for (const crop of crops) {
    widen(s.inputNames[0]!, crop);
    const res = await s.run({ [s.inputNames[0]!]: input(crop) });
    for (const [name, t] of Object.entries(res)) widen(name, t.data as Float32Array);
  }
  fs.writeFileSync(out, JSON.stringify({ crops: crops.length, ranges }, null, 1));
  console.log(`${Object.keys(ranges).length} tensors calibrated on ${crops.length} crops -> ${out}`);
}

async function check(floatModel: string, int8Model: string, clips: readonly string[]): Promise<void> {
  const crops = (await cropsOf(clips)).filter((_, i) => i % 2 === 1);
  const embed = async (model: string) => {
    const s = await session(model);
    const out: Float32Array[] = [];
    for (const c of crops) out.push(l2normalize((await s.run({ [s.inputNames[0]!]: input(c) }))[s.outputNames[0]!]!.data as Float32Array));
    const t0 = process.cpuUsage();
    for (const c of crops) await s.run({ [s.inputNames[0]!]: input(c) });
    const t = process.cpuUsage(t0);
    return { out, msPerFace: (t.user + t.system) / 1000 / crops.length };
  };
  const f = await embed(floatModel);
  const q = await embed(int8Model);
  const self = f.out.map((e, i) => dot(e, q.out[i]!)).sort((a, b) => a - b);
  let sum = 0;
  let max = 0;
  let n = 0;
  for (let i = 0; i < crops.length; i++) {
    for (let j = i + 1; j < crops.length; j++) {
      const d = Math.abs(dot(f.out[i]!, f.out[j]!) - dot(q.out[i]!, q.out[j]!));
      sum += d;
      max = Math.max(max, d);
      n++;
    }
  }
  const at = (p: number) => self[Math.min(self.length - 1, Math.floor(p * self.length))]!.toFixed(4);
  console.log(
    JSON.stringify({
      held_out_crops: crops.length,
      cosine_to_float: { min: at(0), p5: at(0.05), median: at(0.5) },
      pair_cosine_change: { mean: Number((sum / n).toFixed(4)), max: Number(max.toFixed(4)) },
      ms_per_face: { float: Number(f.msPerFace.toFixed(2)), int8: Number(q.msPerFace.toFixed(2)) },
    }),
  );
}

const [command, a, b, ...clips] = process.argv.slice(2);
const run = command === 'calibrate' ? calibrate(a!, b!, clips) : command === 'check' ? check(a!, b!, clips) : Promise.reject(new Error('usage: calibrate FP32_ALL.onnx RANGES.json CLIP... | check FP32.onnx INT8.onnx CLIP...'));
run.catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
