'use strict';
// What a detected face is worth for recognition, and its identity embedding when it is worth one.
// Runs in the analysis worker after YuNet, on the patch of the decode's identity frame (yuv420p,
// long side up to 960 px) of the same instant that its faces' alignments read (identityPatch, cut
// on the main thread). Plain CommonJS; types: face-identity.d.cts.

const { TEMPLATE, CROP, fitSimilarity, warpBox, unionBox, cutPatch, warpToRgb, scaled, rgbToInput, sharpness, yawOf } = require('./face-align.cjs');

/** Side of the thumbnail kept of a face (RGB, interleaved): 12 KB raw, a few KB as PNG. */
const THUMB = 64;

function clamp01(v) {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** The embedding, scaled to unit length (MobileFaceNet's output is not). */
function l2normalize(v) {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const out = new Float32Array(v.length);
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** The face's landmarks in source pixels: its eye distance and yaw. */
function landmarkMeasures(face, task) {
  const src = face.landmarks.map((v, i) => (i % 2 === 0 ? v * task.sourceWidth : v * task.sourceHeight));
  return { eyePx: Math.hypot(src[2] - src[0], src[3] - src[1]), yaw: yawOf(src) };
}

/**
 * The identity of a face its landmarks alone put under a floor (too small, too far in profile): not
 * assignable, its crop never looked at (sharpness and quality 0); null when the face needs its crop.
 */
function ruledOutByLandmarks(face, task) {
  return ruledOut(landmarkMeasures(face, task), task);
}

/** The identity of a face under a floor its measures show, or null. */
function ruledOut({ eyePx, yaw }, task) {
  if (eyePx >= task.minEyePx && yaw <= task.maxYaw) return null;
  return { model: task.model, eyePx, sharpness: 0, yaw, quality: 0, assignable: false, embedding: null, thumb: null };
}

/**
 * The identity of a face that could not be embedded nor carry an embedding (no identity frame at its
 * sample, and its track's embeddings do not vouch for it): measured from its landmarks, not assignable.
 */
function unembeddedIdentity(face, task) {
  const { eyePx, yaw } = landmarkMeasures(face, task);
  return { model: task.model, eyePx, sharpness: 0, yaw, quality: 0, assignable: false, embedding: null, thumb: null };
}

/** Size, sharpness and pose together, 0..1. */
function qualityOf(eyePx, sharp, yaw, task) {
  return Math.cbrt(clamp01((eyePx - task.minEyePx) / (task.goodEyePx - task.minEyePx)) * clamp01(sharp / task.goodSharpness) * (1 - yaw));
}

/**
 * The identity of a face that carries the embedding made for the same face in the sample before
 * (identity-carry.ts): its own size and pose, the earlier crop's sharpness, no thumbnail of its own.
 */
function carriedIdentity(src, face, task) {
  const { eyePx, yaw } = landmarkMeasures(face, task);
  return { ...src, eyePx, yaw, quality: qualityOf(eyePx, src.sharpness, yaw, task), thumb: null };
}

/** The similarity putting a face's landmarks (fractions of the picture) on the template, in identity-frame pixels; null when they coincide. */
function alignmentOf(face, task) {
  return fitSimilarity(
    face.landmarks.map((v, i) => (i % 2 === 0 ? v * task.width : v * task.height)),
    TEMPLATE,
  );
}

/**
 * The patch of a whole identity frame that the alignments of these faces read (crop and thumbnail:
 * the thumbnail's box lies inside the crop's), for identifyFaces and thumbsOf: the worker is sent
 * kilobytes instead of the whole frame, and the crops are the same pixels. Faces the landmarks rule
 * out are never warped, and add nothing.
 */
function identityPatch(frame, faces, task) {
  let box = { x: 0, y: 0, w: 0, h: 0 };
  for (const f of faces) {
    if (ruledOutByLandmarks(f, task)) continue;
    const m = alignmentOf(f, task);
    if (m) box = unionBox(box, unionBox(warpBox(m, CROP, task.width, task.height), warpBox(scaled(m, THUMB / CROP), THUMB, task.width, task.height)));
  }
  return cutPatch(frame, task.width, task.height, box);
}

/**
 * The identity of each face (fractions of the picture) in one frame: eye distance in source
 * pixels, yaw, sharpness, quality, and, for faces above every floor, the L2-normalised embedding
 * (`embed`: the model on a planar float32 input) and a thumbnail of the aligned crop. Faces under
 * a floor are not embedded at all: that is the CPU the floors save.
 */
async function identifyFaces(faces, patch, task, embed) {
  const { width, height } = task;
  const out = [];
  let rgb = null;
  let input = null;
  for (const f of faces) {
    const measures = landmarkMeasures(f, task);
    const under = ruledOut(measures, task);
    if (under) {
      out.push(under);
      continue;
    }
    const { eyePx, yaw } = measures;
    const m = alignmentOf(f, task);
    if (!m) {
      out.push({ model: task.model, eyePx, sharpness: 0, yaw, quality: 0, assignable: false, embedding: null, thumb: null });
      continue;
    }
    rgb = warpToRgb(patch, width, height, m, CROP, rgb);
    const sharp = sharpness(rgb, CROP);
    const quality = qualityOf(eyePx, sharp, yaw, task);
    const assignable = sharp >= task.minSharpness;
    let embedding = null;
    let thumb = null;
    if (assignable) {
      input = rgbToInput(rgb, CROP, input);
      embedding = l2normalize(await embed(input));
      thumb = warpToRgb(patch, width, height, scaled(m, THUMB / CROP), THUMB, null);
    }
    out.push({ model: task.model, eyePx, sharpness: sharp, yaw, quality, assignable, embedding, thumb });
  }
  return out;
}

/**
 * Only the thumbnail of each face (no sharpness, no model run), for faces that carry their track's
 * embedding: the identity returned holds the thumb alone, the carry fills in the rest.
 */
function thumbsOf(faces, patch, task) {
  const { width, height } = task;
  return faces.map((f) => {
    const m = alignmentOf(f, task);
    const thumb = m ? warpToRgb(patch, width, height, scaled(m, THUMB / CROP), THUMB, null) : null;
    return { ...unembeddedIdentity(f, task), thumb };
  });
}

module.exports = { THUMB, identityPatch, thumbsOf, identifyFaces, ruledOutByLandmarks, carriedIdentity, unembeddedIdentity, l2normalize };
