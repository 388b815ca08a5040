/**
 * The frame number burnt into playback test footage as a machine-readable pattern, and its reader.
 *
 * The pattern is one row of equal cells across the full width of the top band of the picture, each
 * cell flat black or white (limited-range luma 16 or 235, neutral chroma):
 *
 *   [white, black] start guard | 16 data bits, most significant first | even parity | [black, white] stop guard
 *
 * 21 cells, so a cell is 1/21 of the width: at 160 px wide (the smallest the browser is expected to
 * scale the video to) a cell is still 7-8 px, wide enough for lossy 4:2:0 coding and a bilinear
 * downscale to leave its centre flat. Everything is a fraction of the picture, so the reader works on
 * any size from 160 px to 4K. The guards tell a pattern from a black or white or shifted picture and
 * give the reader its black and white levels (a browser or a codec may shift both); the parity bit
 * catches a single misread bit, and a cell too near the middle grey (a blend of two frames, a badly
 * scaled picture) makes the read fail instead of guessing.
 */

/** The layout, shared by the generator (playback-footage.ts) and the reader. */
export const FRAME_PATTERN_LAYOUT = {
  /** Cells across the full width. */
  cells: 21,
  /** Data bits, in cells 2..17 (so frame numbers 0..65535). */
  bits: 16,
  /** The band holding the row, from the top edge, as a fraction of the height. */
  band: 1 / 8,
  /** Of each cell, the central part the reader averages (as fractions of the cell's width and band's height). */
  sampleX: [0.3, 0.7] as [number, number],
  sampleY: [0.25, 0.75] as [number, number],
  /** White minus black (0-255 luma) below which nothing is read: no pattern, or a washed-out one. */
  minContrast: 64,
  /** A cell nearer the threshold than this fraction of the contrast is ambiguous: the read fails. */
  margin: 0.2,
} as const;

export type FramePatternLayout = typeof FRAME_PATTERN_LAYOUT;

/**
 * The reader with its layout as an argument. Self-contained on purpose: no imports, no helpers, no
 * named inner functions (a bundler's keep-names option would add calls to a helper), so that its
 * `.toString()` runs in a page (FRAME_PATTERN_SOURCE).
 */
function decodeFramePattern(rgba: ArrayLike<number>, width: number, height: number, channels: number, layout: FramePatternLayout): number | null {
  const cells = layout.cells;
  const bandH = height * layout.band;
  const y0 = Math.floor(bandH * layout.sampleY[0]);
  const y1 = Math.max(y0 + 1, Math.ceil(bandH * layout.sampleY[1]));
  if (width < cells || y1 > height || rgba.length < width * height * channels) return null;
  // About 8 x 8 samples per cell whatever the size: a 4K frame costs no more than a small one.
  const stepY = Math.max(1, Math.floor((y1 - y0) / 8));
  const levels: number[] = [];
  for (let c = 0; c < cells; c++) {
    const x0 = Math.floor(((c + layout.sampleX[0]) * width) / cells);
    const x1 = Math.max(x0 + 1, Math.ceil(((c + layout.sampleX[1]) * width) / cells));
    const stepX = Math.max(1, Math.floor((x1 - x0) / 8));
    let sum = 0;
    let n = 0;
    for (let y = y0; y < y1; y += stepY) {
      for (let x = x0; x < x1; x += stepX) {
        const i = (y * width + x) * channels;
        // Rec. 601 luma weights: the pattern is grey, so any weights summing to 1 would do.
        sum += 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
        n++;
      }
    }
    levels.push(sum / n);
  }
  const last = cells - 1;
  const white = (levels[0]! + levels[last]!) / 2;
  const black = (levels[1]! + levels[last - 1]!) / 2;
  const contrast = white - black;
  if (!(contrast >= layout.minContrast)) return null;
  const threshold = (white + black) / 2;
  const margin = contrast * layout.margin;
  const bitsRead: number[] = [];
  for (let c = 0; c < cells; c++) {
    const d = levels[c]! - threshold;
    if (Math.abs(d) < margin) return null;
    bitsRead.push(d > 0 ? 1 : 0);
  }
  if (bitsRead[0] !== 1 || bitsRead[1] !== 0 || bitsRead[last - 1] !== 0 || bitsRead[last] !== 1) return null;
  let value = 0;
  let ones = 0;
  for (let b = 0; b <= layout.bits; b++) {
    const bit = bitsRead[2 + b]!;
    ones += bit;
    if (b < layout.bits) value = value * 2 + bit;
  }
  return ones % 2 === 0 ? value : null;
}

/**
 * The frame number burnt into a decoded picture (RGB or RGBA, rows top to bottom, no padding), or
 * null when no valid pattern is there. The picture may be scaled to any size, 160 px wide or more.
 */
export function readFramePattern(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number, channels: 3 | 4): number | null {
  return decodeFramePattern(rgba, width, height, channels, FRAME_PATTERN_LAYOUT);
}

/**
 * readFramePattern as a JavaScript expression that evaluates to the function, to inject into a page
 * and call on a canvas's getImageData(). Inject it as a string (page.evaluate(string) or
 * addInitScript({ content })), which Playwright runs over the DevTools protocol: the renderer's CSP
 * forbids eval() in the page itself. See framePatternInstallScript.
 */
export const FRAME_PATTERN_SOURCE = `(function () {
  var layout = ${JSON.stringify(FRAME_PATTERN_LAYOUT)};
  var decode = ${decodeFramePattern.toString()};
  return function readFramePattern(rgba, width, height, channels) { return decode(rgba, width, height, channels, layout); };
})()`;

/**
 * The luma (16 or 235) of the cell at column X of a picture W wide for frame N, as an ffmpeg
 * expression (geq): the generator's half of the layout above, so the two cannot drift apart.
 */
export function framePatternGeqExpr(): string {
  const { cells, bits } = FRAME_PATTERN_LAYOUT;
  const bit = (k: string) => `mod(floor(N/pow(2,${k})),2)`;
  const parity = `mod(${Array.from({ length: bits }, (_, k) => bit(String(k))).join('+')},2)`;
  const c = 'ld(0)';
  // Cells 0-1 white, black; 2..17 the bits; 18 parity; then the stop guard, where only the last is white.
  const value = `if(lt(${c},2),eq(${c},0),if(lt(${c},${2 + bits}),${bit(`${1 + bits}-${c}`)},if(eq(${c},${2 + bits}),${parity},eq(${c},${cells - 1}))))`;
  return `st(0,floor(X*${cells}/W));16+219*${value}`;
}

/**
 * A script that defines globalThis[name] as readFramePattern, for Playwright:
 *
 *   await page.evaluate(framePatternInstallScript());            // or addInitScript({ content })
 *   const n = await page.evaluate(() => {
 *     const v = document.querySelector('video')!, c = document.createElement('canvas');
 *     [c.width, c.height] = [v.videoWidth, v.videoHeight];
 *     const g = c.getContext('2d')!; g.drawImage(v, 0, 0);
 *     return (globalThis as any).__readFramePattern(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
 *   });
 */
export function framePatternInstallScript(name = '__readFramePattern'): string {
  return `globalThis[${JSON.stringify(name)}] = ${FRAME_PATTERN_SOURCE};`;
}
