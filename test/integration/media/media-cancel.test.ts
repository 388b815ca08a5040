import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseShots } from '../../../src-main/core/media/detect-shots-in-file';
import { ClipDecoder } from '../../../src-main/core/media/clip-decoder';
import { TOOL_PRIORITY } from '../../../src-main/core/media/run-process';
import { fitGeometry } from '../../../src-main/core/media/frame-geometry';
import { mediaFile, tempDir } from '../../helpers/paths';
import { processesUsing } from '../../helpers/app/processes';

async function waitFor(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describe.skipIf(process.platform !== 'linux')('ffmpeg children follow cancellation', () => {
  let dir: string;
  let cleanup: () => void;
  let clip: string;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir('reelscout-cancel-'));
    // A uniquely named link to the longest sample, so the test can find its own ffmpeg in /proc.
    clip = path.join(dir, `cancel-me-${process.pid}.mp4`);
    fs.symlinkSync(mediaFile('intel_one-by-one-person-detection.mp4'), clip);
  });
  afterAll(() => cleanup?.());

  it('runs ffmpeg below normal priority, so the app is scheduled first while it decodes', async () => {
    const ctrl = new AbortController();
    const run = analyseShots(clip, { signal: ctrl.signal });
    expect(await waitFor(() => processesUsing(clip).length > 0)).toBe(true);
    // Field 19 of /proc/<pid>/stat is the nice value (after the parenthesised command name).
    const nice = processesUsing(clip).map((pid) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
    ctrl.abort();
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    expect(nice.length).toBeGreaterThan(0);
    for (const n of nice) expect(n).toBe(TOOL_PRIORITY);
  });

  it('kills shot detection decoding when its signal aborts', async () => {
    const ctrl = new AbortController();
    let frames = 0;
    const run = analyseShots(clip, {
      signal: ctrl.signal,
      onFrame: () => {
        if (++frames === 20) ctrl.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    expect(frames).toBeLessThan(1394); // the whole clip has 1394 frames
    expect(await waitFor(() => processesUsing(clip).length === 0)).toBe(true);
  });

  it('kills the analysis decode (posters and filmstrip included) when its signal aborts', async () => {
    const ctrl = new AbortController();
    const run = new ClipDecoder(
      {
        filePath: clip,
        startS: 0,
        outputs: [{ name: 'tensor', fps: 2, geometry: fitGeometry(1280, 720, 224, 224, 'letterbox'), pixFmt: 'rgb24' }],
        audioRate: null,
        stills: { posterFps: 2, stripFrames: [1, 1393], outDir: path.join(dir, 'th') },
        signal: ctrl.signal,
      },
      { onFrame: () => {}, onAudio: () => {} },
    ).run();
    expect(await waitFor(() => processesUsing(clip).length > 0)).toBe(true);
    ctrl.abort();
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    expect(await waitFor(() => processesUsing(clip).length === 0)).toBe(true);
  });
});
