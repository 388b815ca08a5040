'use strict';
// YuNet face detector: input preparation and output decoding. Plain CommonJS because it runs
// inside worker threads, which must load without a TypeScript loader (vitest, tsx, bundled app).
// Types for TypeScript callers: yunet.d.cts.

const STRIDES = [8, 16, 32];

/** Interleaved bgr24 (H, W, 3) bytes -> planar float32 (3, H, W), values 0..255, channel order kept (BGR). */
function bgrToPlanar(frame, width, height, out) {
  const plane = width * height;
  if (frame.length < plane * 3) throw new Error(`frame has ${frame.length} bytes, ${width}x${height} bgr needs ${plane * 3}`);
  const dst = out && out.length === plane * 3 ? out : new Float32Array(plane * 3);
  for (let i = 0, p = 0; i < plane; i++, p += 3) {
    dst[i] = frame[p];
    dst[plane + i] = frame[p + 1];
    dst[2 * plane + i] = frame[p + 2];
  }
  return dst;
}

function clamp01(v) {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * Candidates from the per-stride outputs (public YuNet scheme): for anchor i at row r, column c
 * of the stride-s grid, score = sqrt(cls * obj), centre = ((c + dx) s, (r + dy) s),
 * size = (exp(dw) s, exp(dh) s), landmark k = ((c + kx) s, (r + ky) s). Pixel coordinates of the
 * network input.
 */
function decodeYunet(outputs, width, height, scoreThreshold) {
  const faces = [];
  for (const s of STRIDES) {
    const cls = outputs[`cls_${s}`];
    const obj = outputs[`obj_${s}`];
    const bbox = outputs[`bbox_${s}`];
    const kps = outputs[`kps_${s}`];
    if (!cls || !obj || !bbox || !kps) throw new Error(`YuNet output for stride ${s} is missing`);
    const cols = Math.floor(width / s);
    const n = cols * Math.floor(height / s);
    if (cls.length < n) throw new Error(`YuNet output cls_${s} has ${cls.length} anchors, expected ${n}`);
    for (let i = 0; i < n; i++) {
      const score = Math.sqrt(clamp01(cls[i]) * clamp01(obj[i]));
      if (score < scoreThreshold) continue;
      const r = Math.floor(i / cols);
      const c = i - r * cols;
      const cx = (c + bbox[i * 4]) * s;
      const cy = (r + bbox[i * 4 + 1]) * s;
      const w = Math.exp(bbox[i * 4 + 2]) * s;
      const h = Math.exp(bbox[i * 4 + 3]) * s;
      const landmarks = new Array(10);
      for (let k = 0; k < 5; k++) {
        landmarks[2 * k] = (c + kps[i * 10 + 2 * k]) * s;
        landmarks[2 * k + 1] = (r + kps[i * 10 + 2 * k + 1]) * s;
      }
      faces.push({ x: cx - w / 2, y: cy - h / 2, w, h, score, landmarks });
    }
  }
  return faces;
}

function iou(a, b) {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.w, b.x + b.w);
  const y2 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression, highest score first. */
function nms(faces, iouThreshold, topK) {
  const sorted = faces.slice().sort((a, b) => b.score - a.score);
  const kept = [];
  for (const f of sorted) {
    if (kept.length >= topK) break;
    if (kept.every((k) => iou(k, f) <= iouThreshold)) kept.push(f);
  }
  return kept;
}

/**
 * Input pixels -> fractions of the picture (content box at the top-left of the padded input).
 * Detections centred in the padding are dropped; boxes are clipped to the picture.
 */
function normalizeFaces(faces, contentWidth, contentHeight) {
  const out = [];
  for (const f of faces) {
    const cx = f.x + f.w / 2;
    const cy = f.y + f.h / 2;
    if (cx < 0 || cy < 0 || cx >= contentWidth || cy >= contentHeight) continue;
    const x1 = Math.max(0, f.x) / contentWidth;
    const y1 = Math.max(0, f.y) / contentHeight;
    const x2 = Math.min(contentWidth, f.x + f.w) / contentWidth;
    const y2 = Math.min(contentHeight, f.y + f.h) / contentHeight;
    const landmarks = f.landmarks.map((v, i) => (i % 2 === 0 ? v / contentWidth : v / contentHeight));
    out.push({ x: x1, y: y1, w: x2 - x1, h: y2 - y1, score: f.score, landmarks });
  }
  return out;
}

module.exports = { STRIDES, bgrToPlanar, decodeYunet, nms, iou, normalizeFaces };
