'use strict';
// Worker thread for the CPU-heavy part of local analysis: YuNet inference, the faces' identity
// embeddings (MobileFaceNet) and block-matching motion. Plain CommonJS, loaded by absolute path, so it runs the same under vitest, tsx and a
// bundled or packaged app. onnxruntime-node is required through the path the main thread resolved
// (workerData.ortPath), because this file may live outside the app's node_modules tree.
//
// Protocol: { id, type: 'faces' | 'identify' | 'motion', ...payload } -> { id, ok: true, result } | { id, ok: false, error }.

const { parentPort, workerData } = require('node:worker_threads');
const { bgrToPlanar, decodeYunet, nms, normalizeFaces } = require('./yunet.cjs');
const { estimateSteps } = require('./block-motion.cjs');
const { identifyFaces, thumbsOf } = require('./face-identity.cjs');

let ort = null;
let sessionPromise = null;
let embedPromise = null;
let planar = null;

function open(modelPath) {
  ort ??= require(workerData.ortPath);
  // One intra-op thread: the pool's size is the concurrency bound, not ORT's own thread pool.
  return ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
}

function session() {
  sessionPromise ??= open(workerData.modelPath);
  return sessionPromise;
}

/** The embedding model, loaded by the first task that has a face worth embedding. */
function embedSession() {
  embedPromise ??= open(workerData.embedModelPath);
  return embedPromise;
}

async function embed(input) {
  const s = await embedSession();
  const res = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, 112, 112]) });
  return res[s.outputNames[0]].data;
}

async function detectFaces(msg) {
  const s = await session();
  const inputName = s.inputNames[0];
  const out = [];
  for (let k = 0; k < msg.frames.length; k++) {
    const frame = new Uint8Array(msg.frames[k]);
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

/** Each face's identity, from the patch of the identity frame of its instant that its alignment reads (patch k holds faces[k]). */
async function identify(msg) {
  const out = [];
  for (let k = 0; k < msg.patches.length; k++) {
    const patch = msg.patches[k];
    out.push(msg.thumbOnly[k] ? thumbsOf(msg.faces[k], patch, msg) : await identifyFaces(msg.faces[k], patch, msg, embed));
  }
  return out;
}

function estimateMotion(msg) {
  const frames = msg.frames.map((b) => new Uint8Array(b));
  return estimateSteps(frames, msg.width, msg.height);
}

// Frees the native sessions before the pool terminates this thread (see AnalysisPool.retire).
async function releaseSession() {
  const live = [sessionPromise, embedPromise].filter(Boolean);
  sessionPromise = null;
  embedPromise = null;
  for (const p of live) await (await p).release();
  return true;
}

parentPort.on('message', async (msg) => {
  try {
    let result;
    if (msg.type === 'faces') result = await detectFaces(msg);
    else if (msg.type === 'identify') result = await identify(msg);
    else if (msg.type === 'motion') result = estimateMotion(msg);
    else if (msg.type === 'warmup') result = (await session(), msg.recognition && (await embedSession()), true);
    else if (msg.type === 'release') result = await releaseSession();
    else throw new Error(`unknown task type ${msg.type}`);
    parentPort.postMessage({ id: msg.id, ok: true, result });
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: e && e.message ? e.message : String(e) });
  }
});
