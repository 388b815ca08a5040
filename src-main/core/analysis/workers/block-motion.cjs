'use strict';
// Global motion between consecutive low-resolution gray frames: coarse global translation, then
// block matching (two pyramid levels, sub-pixel refinement), then a robust least-squares fit of
// translation + zoom. Plain CommonJS so worker threads load it without a TypeScript loader.
//
// Convention: a step's (tx, ty) is how far the picture content moved from the earlier frame to the
// later one, in pixels of the motion frames, x right and y down; k is the relative scale change
// about the frame centre (content grows when k > 0). Interpreting that as camera movement
// (content moving left = camera panning right) happens in camera-motion.ts.

const BLOCK = 16; // block side at full motion resolution
const GRID = 16; // spacing of block centres
const GLOBAL_RADIUS = 6; // coarse global search, pixels at quarter resolution (= 24 px full)
const L1_RADIUS = 3; // per-block search at half resolution around the global prediction
const L0_RADIUS = 2; // refinement at full resolution
const MIN_STD = 4; // blocks flatter than this (gray levels) carry no usable motion
const MIN_BLOCKS = 6;
const MAX_RESIDUAL = 1.5; // px: worse means several motions, not one camera move
const ZERO_MIN_BLOCKS = 3;
const ZERO_SHARE = 0.6;

/** 2x2 box downsample. */
function half(src, w, h) {
  const hw = w >> 1;
  const hh = h >> 1;
  const out = new Uint8Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    const r0 = 2 * y * w;
    const r1 = r0 + w;
    for (let x = 0; x < hw; x++) {
      const i = 2 * x;
      out[y * hw + x] = (src[r0 + i] + src[r0 + i + 1] + src[r1 + i] + src[r1 + i + 1] + 2) >> 2;
    }
  }
  return { data: out, w: hw, h: hh };
}

/** Mean absolute difference of b shifted by (dx, dy) against a, over the overlap minus a margin. */
function shiftedMad(a, b, w, h, dx, dy, margin) {
  const x0 = Math.max(margin, margin - dx);
  const x1 = Math.min(w - margin, w - margin - dx);
  const y0 = Math.max(margin, margin - dy);
  const y1 = Math.min(h - margin, h - margin - dy);
  if (x1 - x0 < 4 || y1 - y0 < 4) return Infinity;
  let sum = 0;
  for (let y = y0; y < y1; y++) {
    const ra = y * w;
    const rb = (y + dy) * w + dx;
    for (let x = x0; x < x1; x++) sum += Math.abs(a[ra + x] - b[rb + x]);
  }
  return sum / ((x1 - x0) * (y1 - y0));
}

function globalShift(a, b, w, h) {
  let best = Infinity;
  let bx = 0;
  let by = 0;
  const r = Math.min(GLOBAL_RADIUS, Math.floor(w / 4), Math.floor(h / 4));
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      // Ties favour no motion, so flat frames report zero rather than an arbitrary corner.
      const d = shiftedMad(a, b, w, h, dx, dy, 1) + 1e-3 * (Math.abs(dx) + Math.abs(dy));
      if (d < best) {
        best = d;
        bx = dx;
        by = dy;
      }
    }
  }
  return { dx: bx, dy: by };
}

/**
 * Sum of squared differences between block of a at (x, y) and block of b at (x + dx, y + dy);
 * Infinity outside. With a `limit`, it stops after the first row that takes the sum past it and
 * returns that partial sum: a search only needs to know the candidate lost, and most lose early
 * (the same winner and the same sums for every candidate that can win, at a fraction of the work).
 */
function blockSsd(a, b, w, h, x, y, size, dx, dy, limit = Infinity) {
  const bx = x + dx;
  const by = y + dy;
  if (bx < 0 || by < 0 || bx + size > w || by + size > h) return Infinity;
  let sum = 0;
  for (let j = 0; j < size; j++) {
    const ra = (y + j) * w + x;
    const rb = (by + j) * w + bx;
    for (let i = 0; i < size; i++) {
      const d = a[ra + i] - b[rb + i];
      sum += d * d;
    }
    if (sum > limit) return sum;
  }
  return sum;
}

function blockStd(a, w, x, y, size) {
  let s = 0;
  let s2 = 0;
  for (let j = 0; j < size; j++) {
    const r = (y + j) * w + x;
    for (let i = 0; i < size; i++) {
      const v = a[r + i];
      s += v;
      s2 += v * v;
    }
  }
  const n = size * size;
  const mean = s / n;
  return Math.sqrt(Math.max(0, s2 / n - mean * mean));
}

function searchBlock(a, b, w, h, x, y, size, cx, cy, radius) {
  let best = Infinity;
  let bx = cx;
  let by = cy;
  for (let dy = cy - radius; dy <= cy + radius; dy++) {
    for (let dx = cx - radius; dx <= cx + radius; dx++) {
      const penalty = 1e-6 * (Math.abs(dx) + Math.abs(dy));
      const d = blockSsd(a, b, w, h, x, y, size, dx, dy, best - penalty) + penalty;
      if (d < best) {
        best = d;
        bx = dx;
        by = dy;
      }
    }
  }
  return { dx: bx, dy: by, ssd: best };
}

/** Vertex of the parabola through (-1, m), (0, c), (1, p); null when there is no clear minimum. */
function parabolaOffset(m, c, p) {
  if (!Number.isFinite(m) || !Number.isFinite(p)) return null;
  const denom = m - 2 * c + p;
  if (denom <= 0) return null;
  const off = (m - p) / (2 * denom);
  return Math.max(-0.5, Math.min(0.5, off));
}

/** Motion vectors of textured blocks: [{x, y, dx, dy}] with (x, y) the block centre. */
function blockVectors(a, b, w, h) {
  const a1 = half(a, w, h);
  const b1 = half(b, w, h);
  const a2 = half(a1.data, a1.w, a1.h);
  const b2 = half(b1.data, b1.w, b1.h);
  const g = globalShift(a2.data, b2.data, a2.w, a2.h);
  const vectors = [];
  const hb = BLOCK >> 1;
  const cols = Math.floor((w - BLOCK) / GRID) + 1;
  const rows = Math.floor((h - BLOCK) / GRID) + 1;
  // Centre the grid so the blocks are symmetric about the frame centre (keeps zoom and translation apart).
  const ox = Math.floor((w - ((cols - 1) * GRID + BLOCK)) / 2);
  const oy = Math.floor((h - ((rows - 1) * GRID + BLOCK)) / 2);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = ox + c * GRID;
      const y = oy + r * GRID;
      const std = blockStd(a, w, x, y, BLOCK);
      if (std < MIN_STD) continue;
      const l1 = searchBlock(a1.data, b1.data, a1.w, a1.h, x >> 1, y >> 1, hb, 2 * g.dx, 2 * g.dy, L1_RADIUS);
      if (!Number.isFinite(l1.ssd)) continue;
      const l0 = searchBlock(a, b, w, h, x, y, BLOCK, 2 * l1.dx, 2 * l1.dy, L0_RADIUS);
      if (!Number.isFinite(l0.ssd)) continue;
      const sx = parabolaOffset(
        blockSsd(a, b, w, h, x, y, BLOCK, l0.dx - 1, l0.dy),
        l0.ssd,
        blockSsd(a, b, w, h, x, y, BLOCK, l0.dx + 1, l0.dy),
      );
      const sy = parabolaOffset(
        blockSsd(a, b, w, h, x, y, BLOCK, l0.dx, l0.dy - 1),
        l0.ssd,
        blockSsd(a, b, w, h, x, y, BLOCK, l0.dx, l0.dy + 1),
      );
      // Edges (texture in one direction only) give no minimum across them: skip, they would lie.
      if (sx === null || sy === null) continue;
      // A block whose best match is still poor (occlusion, motion blur, something moving) is noise.
      const meanSq = l0.ssd / (BLOCK * BLOCK);
      if (meanSq > Math.max(100, 0.5 * std * std)) continue;
      vectors.push({ x: x + hb, y: y + hb, dx: l0.dx + sx, dy: l0.dy + sy });
    }
  }
  return { vectors, coarse: { dx: 4 * g.dx, dy: 4 * g.dy } };
}

/** Least squares for d = t + k (p - c) over the selected vectors; null when degenerate. */
function fitSimilarity(vectors, cx, cy, use) {
  let n = 0;
  let sux = 0;
  let suy = 0;
  let suu = 0;
  let sdx = 0;
  let sdy = 0;
  let sud = 0;
  for (let i = 0; i < vectors.length; i++) {
    if (!use[i]) continue;
    const v = vectors[i];
    const ux = v.x - cx;
    const uy = v.y - cy;
    n++;
    sux += ux;
    suy += uy;
    suu += ux * ux + uy * uy;
    sdx += v.dx;
    sdy += v.dy;
    sud += ux * v.dx + uy * v.dy;
  }
  if (n < 3) return null;
  // Eliminate tx, ty from the 3x3 normal equations.
  const denom = suu - (sux * sux + suy * suy) / n;
  if (denom < 1e-6) return null;
  const k = (sud - (sux * sdx + suy * sdy) / n) / denom;
  const tx = (sdx - k * sux) / n;
  const ty = (sdy - k * suy) / n;
  return { tx, ty, k };
}

function median(values) {
  if (values.length === 0) return 0;
  const s = values.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Robust fit: refit on inliers (residual under 2.5 robust sigmas, at least 0.6 px) three times. */
function robustFit(vectors, w, h) {
  const cx = w / 2;
  const cy = h / 2;
  let use = vectors.map(() => true);
  let model = fitSimilarity(vectors, cx, cy, use);
  if (!model) return null;
  let residuals = [];
  for (let iter = 0; iter < 3; iter++) {
    residuals = vectors.map((v) => {
      const ex = model.tx + model.k * (v.x - cx);
      const ey = model.ty + model.k * (v.y - cy);
      return Math.hypot(v.dx - ex, v.dy - ey);
    });
    const sigma = 1.4826 * median(residuals.filter((_, i) => use[i]));
    const thr = Math.max(0.6, 2.5 * sigma);
    const next = residuals.map((r) => r <= thr);
    const refit = fitSimilarity(vectors, cx, cy, next);
    if (!refit) break;
    use = next;
    model = refit;
  }
  const inl = residuals.filter((_, i) => use[i]);
  const inliers = use.filter(Boolean).length;
  const residual = inl.length ? Math.sqrt(inl.reduce((s, r) => s + r * r, 0) / inl.length) : 0;
  // A camera move shifts the whole picture; objects move over a still background. When a good
  // share of the textured blocks did not move at all, the still set is the background: a car
  // crossing a flat road must not read as a tilt just because the car has more texture.
  const zeroThr = Math.max(0.5, 2.5 * (residual || 0.2));
  const still = vectors.filter((v) => Math.hypot(v.dx, v.dy) <= zeroThr).length;
  if (still >= ZERO_MIN_BLOCKS && still >= ZERO_SHARE * inliers) {
    return { tx: 0, ty: 0, k: 0, inliers: still, residual: 0, still: true };
  }
  return { tx: model.tx, ty: model.ty, k: model.k, inliers, residual, still: false };
}

/**
 * Motion from frame a to frame b (both w x h gray). `valid` is false when too few textured blocks
 * agree (flat or black frames, a cut, heavy blur); tx/ty then fall back to the coarse estimate.
 */
function estimateStep(a, b, w, h) {
  const { vectors, coarse } = blockVectors(a, b, w, h);
  const fit = vectors.length >= MIN_BLOCKS ? robustFit(vectors, w, h) : null;
  if (!fit || (!fit.still && (fit.inliers < MIN_BLOCKS || fit.residual > MAX_RESIDUAL))) {
    return { tx: coarse.dx, ty: coarse.dy, k: 0, valid: false, blocks: vectors.length, inliers: fit ? fit.inliers : 0, residual: fit ? fit.residual : 0 };
  }
  return { tx: fit.tx, ty: fit.ty, k: fit.k, valid: true, blocks: vectors.length, inliers: fit.inliers, residual: fit.residual };
}

/** Steps between each consecutive pair of a frame sequence. */
function estimateSteps(frames, w, h) {
  const steps = [];
  for (let i = 1; i < frames.length; i++) steps.push(estimateStep(frames[i - 1], frames[i], w, h));
  return steps;
}

module.exports = { estimateStep, estimateSteps, robustFit, fitSimilarity, blockVectors };
