'use strict';
// Face alignment for the identity embedding: the similarity transform that puts a face's five
// landmarks on the ArcFace template, the bilinear warp of a yuv420p frame (or the patch of it the
// warp reads: warpBox, cutPatch) through it, and the
// measures of a crop's worth (pose from the landmarks, sharpness of the crop). Plain CommonJS: it
// runs in the analysis worker threads. Types: face-align.d.cts.

/** The ArcFace 112x112 template: image-left eye, image-right eye, nose tip, image-left and image-right mouth corner. */
const TEMPLATE = [38.2946, 51.6963, 73.5318, 51.5014, 56.0252, 71.7366, 41.5493, 92.3655, 70.7299, 92.2041];
const CROP = 112;
/** Eye distance over eyes-to-mouth height on the frontal template (0.866). */
const FRONTAL_RATIO = (() => {
  const t = TEMPLATE;
  const height = Math.hypot((t[6] + t[8] - t[0] - t[2]) / 2, (t[7] + t[9] - t[1] - t[3]) / 2);
  return Math.hypot(t[2] - t[0], t[3] - t[1]) / height;
})();

/**
 * Least-squares similarity (rotation, uniform scale, translation; no reflection) mapping the
 * points `src` onto `dst` (both x0, y0, x1, y1, ...): x' = a x - b y + tx, y' = b x + a y + ty.
 * Null when the source points coincide.
 */
function fitSimilarity(src, dst) {
  const n = src.length / 2;
  let psx = 0, psy = 0, qsx = 0, qsy = 0;
  for (let i = 0; i < n; i++) {
    psx += src[2 * i];
    psy += src[2 * i + 1];
    qsx += dst[2 * i];
    qsy += dst[2 * i + 1];
  }
  psx /= n;
  psy /= n;
  qsx /= n;
  qsy /= n;
  let norm = 0, dot = 0, cross = 0;
  for (let i = 0; i < n; i++) {
    const px = src[2 * i] - psx, py = src[2 * i + 1] - psy;
    const qx = dst[2 * i] - qsx, qy = dst[2 * i + 1] - qsy;
    norm += px * px + py * py;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
  }
  if (!(norm > 1e-12)) return null;
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: qsx - (a * psx - b * psy), ty: qsy - (b * psx + a * psy) };
}

/**
 * Bilinear sample at frame point (x, y) of one plane of a patch: the plane is fw x fh in the whole
 * frame, the patch holds its box from (px, py), `stride` wide. Neighbours outside the frame count as
 * `outside`; the box holds every neighbour inside it the warp reads (warpBox), so a patch gives the
 * same values as its whole frame.
 */
function sample(plane, offset, stride, px, py, fw, fh, x, y, outside) {
  const x0 = Math.floor(x), y0 = Math.floor(y);
  const fx = x - x0, fy = y - y0;
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const xi = x0 + (k & 1), yi = y0 + (k >> 1);
    const w = ((k & 1) ? fx : 1 - fx) * ((k >> 1) ? fy : 1 - fy);
    v += w * (xi < 0 || yi < 0 || xi >= fw || yi >= fh ? outside : plane[offset + (yi - py) * stride + (xi - px)]);
  }
  return v;
}

function byte(v) {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/**
 * A whole yuv420p frame (width x height, both even: Y, then U and V at half size) as a patch: a box
 * of a frame with its planes cut out alone (x, y, w, h even; Y w x h, then U and V at w/2 x h/2).
 */
function wholeFrame(data, width, height) {
  return { data, x: 0, y: 0, w: width, h: height };
}

/**
 * The box of a width x height frame (even x, y, w, h; empty when the crop lies wholly outside) that
 * holds every pixel the warp through `m` into a size x size crop reads. The crop's inverse image is
 * a parallelogram: its corners bound it. Bilinear sampling reads floor(s) and floor(s) + 1, chroma
 * at half the coordinates up to 3 luma pixels either side; 4 and 5 cover both and the rounding
 * between the corners' arithmetic and each pixel's.
 */
function warpBox(m, size, width, height) {
  const det = m.a * m.a + m.b * m.b;
  const ia = m.a / det, ib = m.b / det;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [u, v] of [[0, 0], [size - 1, 0], [0, size - 1], [size - 1, size - 1]]) {
    const du = u - m.tx, dv = v - m.ty;
    const sx = ia * du + ib * dv, sy = -ib * du + ia * dv;
    minX = Math.min(minX, sx);
    maxX = Math.max(maxX, sx);
    minY = Math.min(minY, sy);
    maxY = Math.max(maxY, sy);
  }
  const even = (v, lo, hi) => Math.min(hi, Math.max(lo, v)) & ~1;
  const x0 = even(Math.floor(minX) - 4, 0, width), y0 = even(Math.floor(minY) - 4, 0, height);
  const x1 = even(Math.floor(maxX) + 7, 0, width), y1 = even(Math.floor(maxY) + 7, 0, height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : { x: 0, y: 0, w: 0, h: 0 };
}

/** The smallest box holding both (an empty box holds nothing). */
function unionBox(p, q) {
  if (p.w === 0 || p.h === 0) return q;
  if (q.w === 0 || q.h === 0) return p;
  const x = Math.min(p.x, q.x), y = Math.min(p.y, q.y);
  return { x, y, w: Math.max(p.x + p.w, q.x + q.w) - x, h: Math.max(p.y + p.h, q.y + q.h) - y };
}

/** The patch of a whole yuv420p frame in `box` (from warpBox): its three planes' rows copied out. */
function cutPatch(frame, width, height, box) {
  const { x, y, w, h } = box;
  const cw = width >> 1, chh = height >> 1;
  const data = new Uint8Array((w * h * 3) / 2);
  for (let r = 0; r < h; r++) data.set(frame.subarray((y + r) * width + x, (y + r) * width + x + w), r * w);
  const uAt = width * height, vAt = uAt + cw * chh;
  const pw = w >> 1, ph = h >> 1, pu = w * h, pv = pu + pw * ph;
  for (let r = 0; r < ph; r++) {
    const from = ((y >> 1) + r) * cw + (x >> 1);
    data.set(frame.subarray(uAt + from, uAt + from + pw), pu + r * pw);
    data.set(frame.subarray(vAt + from, vAt + from + pw), pv + r * pw);
  }
  return { data, x, y, w, h };
}

/**
 * Warps a yuv420p frame (width x height, both even), given as a patch holding at least warpBox's
 * box of it, through the similarity `m` (frame -> crop) into a size x size interleaved RGB crop:
 * each crop pixel samples the planes bilinearly at the inverse-mapped point (chroma at half the
 * coordinates, centred between luma rows as MPEG chroma is) and is converted with BT.601
 * limited-range coefficients, what ffmpeg assumes for untagged video. Outside the frame is black
 * (Y 16, U and V 128). yuv420p rather than bgr24 from ffmpeg: half the bytes through the pipe and
 * no colour conversion of whole frames for the few pixels of the faces.
 */
function warpToRgb(patch, width, height, m, size, out) {
  const dst = out && out.length === size * size * 3 ? out : new Uint8Array(size * size * 3);
  const det = m.a * m.a + m.b * m.b;
  const ia = m.a / det, ib = m.b / det;
  const cw = width >> 1, ch = height >> 1;
  const { data, x: px, y: py, w: pw, h: ph } = patch;
  const cpx = px >> 1, cpy = py >> 1, cstride = pw >> 1;
  const uAt = pw * ph, vAt = uAt + cstride * (ph >> 1);
  for (let v = 0, o = 0; v < size; v++) {
    for (let u = 0; u < size; u++, o += 3) {
      const du = u - m.tx, dv = v - m.ty;
      const sx = ia * du + ib * dv;
      const sy = -ib * du + ia * dv;
      // Where all four neighbours lie inside the frame (nearly every pixel of a face), the bilinear
      // sums are written out with sample()'s weights in its order (the same values to the bit), and
      // U and V share theirs: the warp was most of a face's CPU outside the model.
      let y;
      const x0 = Math.floor(sx), y0 = Math.floor(sy);
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < width && y0 + 1 < height) {
        const fx = sx - x0, fy = sy - y0, gx = 1 - fx, gy = 1 - fy;
        const i = (y0 - py) * pw + (x0 - px);
        y = 1.164 * (gx * gy * data[i] + fx * gy * data[i + 1] + gx * fy * data[i + pw] + fx * fy * data[i + pw + 1] - 16);
      } else {
        y = 1.164 * (sample(data, 0, pw, px, py, width, height, sx, sy, 16) - 16);
      }
      const csx = sx / 2, csy = (sy - 0.5) / 2;
      let cb, cr;
      const c0 = Math.floor(csx), r0 = Math.floor(csy);
      if (c0 >= 0 && r0 >= 0 && c0 + 1 < cw && r0 + 1 < ch) {
        const fx = csx - c0, fy = csy - r0, gx = 1 - fx, gy = 1 - fy;
        const w00 = gx * gy, w01 = fx * gy, w10 = gx * fy, w11 = fx * fy;
        const i = (r0 - cpy) * cstride + (c0 - cpx);
        const iu = uAt + i, iv = vAt + i;
        cb = w00 * data[iu] + w01 * data[iu + 1] + w10 * data[iu + cstride] + w11 * data[iu + cstride + 1] - 128;
        cr = w00 * data[iv] + w01 * data[iv + 1] + w10 * data[iv + cstride] + w11 * data[iv + cstride + 1] - 128;
      } else {
        cb = sample(data, uAt, cstride, cpx, cpy, cw, ch, csx, csy, 128) - 128;
        cr = sample(data, vAt, cstride, cpx, cpy, cw, ch, csx, csy, 128) - 128;
      }
      dst[o] = byte(y + 1.596 * cr);
      dst[o + 1] = byte(y - 0.392 * cb - 0.813 * cr);
      dst[o + 2] = byte(y + 2.017 * cb);
    }
  }
  return dst;
}

/** The transform `m` followed by a uniform scale of the crop (the 112 px template drawn at another size). */
function scaled(m, f) {
  return { a: m.a * f, b: m.b * f, tx: m.tx * f, ty: m.ty * f };
}

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** (v / 255 - mean) / std of each channel's 256 values, as float32: the per-pixel arithmetic done once. */
const INPUT_OF = (() => {
  const t = new Float32Array(3 * 256);
  for (let c = 0; c < 3; c++) for (let v = 0; v < 256; v++) t[c * 256 + v] = (v / 255 - MEAN[c]) / STD[c];
  return t;
})();

/** RGB crop -> planar float32 (3, size, size): /255, then the ImageNet mean and std MobileFaceNet was trained with. */
function rgbToInput(rgb, size, out) {
  const plane = size * size;
  const dst = out && out.length === plane * 3 ? out : new Float32Array(plane * 3);
  for (let i = 0; i < plane; i++) {
    dst[i] = INPUT_OF[rgb[i * 3]];
    dst[plane + i] = INPUT_OF[256 + rgb[i * 3 + 1]];
    dst[2 * plane + i] = INPUT_OF[512 + rgb[i * 3 + 2]];
  }
  return dst;
}

/**
 * Sharpness of an aligned RGB crop: the variance of the 4-neighbour Laplacian of its gray (0..255)
 * over the face's inner box (eyes to mouth, away from any black border the warp left). Measured on
 * the 112 px crop, so faces of every size are judged at the same scale. Dividing by the gray's own
 * variance (to discount contrast) was tried and dropped: it rose again for heavy blur once the
 * encoder's noise was all that was left (asl_book blurred with sigma 8: 0.012 against 0.008 at
 * sigma 2), while the plain variance falls steadily (table at faceMinSharpness).
 */
function sharpness(rgb, size) {
  const s = size / CROP;
  const x0 = Math.round(28 * s), x1 = Math.round(84 * s), y0 = Math.round(36 * s), y1 = Math.round(100 * s);
  // The gray of the box and its one-pixel rim, each pixel once (the Laplacian reads each five times).
  const gw = x1 - x0 + 2, gh = y1 - y0 + 2;
  const g = new Float64Array(gw * gh);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const p = ((y0 - 1 + y) * size + (x0 - 1 + x)) * 3;
      g[y * gw + x] = 0.299 * rgb[p] + 0.587 * rgb[p + 1] + 0.114 * rgb[p + 2];
    }
  }
  let n = 0, sl = 0, sl2 = 0;
  for (let y = 1; y < gh - 1; y++) {
    for (let x = 1, i = y * gw + 1; x < gw - 1; x++, i++) {
      const l = g[i - 1] + g[i + 1] + g[i - gw] + g[i + gw] - 4 * g[i];
      n++;
      sl += l;
      sl2 += l * l;
    }
  }
  return sl2 / n - (sl / n) ** 2;
}

function clamp01(v) {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * How far the head is turned, 0 frontal .. 1 profile, from five landmarks in square pixels: the
 * larger of (a) the nose's offset from the eyes' midpoint along the eye line, as a fraction of half
 * the eye distance (1: the nose is over the nearer eye), and (b) how much the eye distance has
 * shrunk against the eyes-to-mouth height (FRONTAL_RATIO on the template; it shrinks with the
 * cosine of the turn).
 */
function yawOf(p) {
  const ex = p[2] - p[0], ey = p[3] - p[1];
  const eyeDist = Math.hypot(ex, ey);
  if (!(eyeDist > 0)) return 1;
  const mx = (p[0] + p[2]) / 2, my = (p[1] + p[3]) / 2;
  const along = ((p[4] - mx) * ex + (p[5] - my) * ey) / eyeDist;
  const mouthX = (p[6] + p[8]) / 2, mouthY = (p[7] + p[9]) / 2;
  const height = Math.hypot(mouthX - mx, mouthY - my);
  const nose = Math.abs(along) / (eyeDist / 2);
  const width = height > 0 ? 1 - eyeDist / height / FRONTAL_RATIO : 1;
  return clamp01(Math.max(nose, width));
}

module.exports = { TEMPLATE, CROP, fitSimilarity, wholeFrame, warpBox, unionBox, cutPatch, warpToRgb, scaled, rgbToInput, sharpness, yawOf };
