'use strict';
// Worker thread for the CPU-heavy part of local analysis: YuNet inference and block-matching
// motion. Plain CommonJS, loaded by absolute path, so it runs the same under vitest, tsx and a
// bundled or packaged app. onnxruntime-node is required through the path the main thread resolved
// (workerData.ortPath), because this file may live outside the app's node_modules tree.
//
// Protocol: { id, type: 'faces' | 'motion', ...payload } -> { id, ok: true, result } | { id, ok: false, error }.

const { parentPort, workerData } = require('node:worker_threads');
const { bgrToPlanar, decodeYunet, nms, normalizeFaces } = require('./yunet.cjs');
const { estimateSteps } = require('./block-motion.cjs');

let ort = null;
let sessionPromise = null;
let planar = null;

function session() {
  if (!sessionPromise) {
    ort = require(workerData.ortPath);
    // One intra-op thread: the pool's size is the concurrency bound, not ORT's own thread pool.
    sessionPromise = ort.InferenceSession.create(workerData.modelPath, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
  }
  return sessionPromise;
}

async function detectFaces(msg) {
  const s = await session();
  const inputName = s.inputNames[0];
  const out = [];
  for (const buf of msg.frames) {
    const frame = new Uint8Array(buf);
    planar = bgrToPlanar(frame, msg.width, msg.height, planar);
    const input = new ort.Tensor('float32', planar, [1, 3, msg.height, msg.width]);
    const res = await s.run({ [inputName]: input });
    const outputs = {};
    for (const [name, t] of Object.entries(res)) outputs[name] = t.data;
    const candidates = decodeYunet(outputs, msg.width, msg.height, msg.scoreThreshold);
    const kept = nms(candidates, msg.nmsThreshold, msg.topK);
    out.push(normalizeFaces(kept, msg.contentWidth, msg.contentHeight));
  }
  return out;
}

function estimateMotion(msg) {
  const frames = msg.frames.map((b) => new Uint8Array(b));
  return estimateSteps(frames, msg.width, msg.height);
}

// Frees the native session before the pool terminates this thread (see AnalysisPool.retire).
async function releaseSession() {
  if (!sessionPromise) return true;
  const s = await sessionPromise;
  sessionPromise = null;
  await s.release();
  return true;
}

parentPort.on('message', async (msg) => {
  try {
    let result;
    if (msg.type === 'faces') result = await detectFaces(msg);
    else if (msg.type === 'motion') result = estimateMotion(msg);
    else if (msg.type === 'warmup') result = (await session(), true);
    else if (msg.type === 'release') result = await releaseSession();
    else throw new Error(`unknown task type ${msg.type}`);
    parentPort.postMessage({ id: msg.id, ok: true, result });
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: e && e.message ? e.message : String(e) });
  }
});
