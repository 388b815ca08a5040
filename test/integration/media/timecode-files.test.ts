import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { probeFile } from '../../../src-main/core/media/probe';
import { clipTimebase, rateFromFps, timecodeAt } from '../../../src-shared/timecode';
import { tempDir } from '../../helpers/paths';

/**
 * Start timecode as cameras write it, made with ffmpeg's -timecode: a tmcd track in MP4/MOV
 * (drop-frame at 29.97), a stream tag in MXF-less containers, none at all. The probe reads it and
 * the timecode module counts from it.
 */
let tmp: { dir: string; cleanup: () => void };
const files: Record<string, string> = {};

function make(name: string, rate: string, tc: string | null, seconds = 2): string {
  const out = path.join(tmp.dir, name);
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=${rate}:duration=${seconds}`];
  if (tc) args.push('-timecode', tc);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out);
  execFileSync(ffPath('ffmpeg'), args);
  return out;
}

beforeAll(() => {
  tmp = tempDir('rs-timecode-');
  files.df = make('ntsc-df.mov', '30000/1001', '01:00:00;00');
  files.ndf = make('pal.mp4', '25', '10:00:00:00');
  files.film = make('film.mov', '24000/1001', '00:59:59:00');
  files.none = make('none.mp4', '30000/1001', null);
}, 60_000);

afterAll(() => tmp?.cleanup());

async function timebaseOf(file: string) {
  const { info } = await probeFile(file);
  return { info, tb: clipTimebase(rateFromFps(info.fps), info.timecode) };
}

describe('start timecode from files', () => {
  it('29.97 with a drop-frame tmcd track: frame 1800 after 01:00:00;00 reads 01:01:00;02', async () => {
    const { info, tb } = await timebaseOf(files.df!);
    expect(info.timecode).toBe('01:00:00;00');
    expect(tb).toMatchObject({ rate: { num: 30000, den: 1001 }, dropFrame: true, startFrame: 107892 });
    expect(timecodeAt(tb, 0)).toBe('01:00:00;00');
    expect(timecodeAt(tb, (1800 * 1001) / 30000)).toBe('01:01:00;02');
  });

  it('25 fps from 10:00:00:00 and 23.976 from 00:59:59:00 count non-drop', async () => {
    const pal = await timebaseOf(files.ndf!);
    expect(pal.info.timecode).toBe('10:00:00:00');
    expect(timecodeAt(pal.tb, 1.52)).toBe('10:00:01:13');
    const film = await timebaseOf(files.film!);
    expect(film.tb.dropFrame).toBe(false);
    // 24 frames (1.001 s) after 00:59:59:00 is the hour.
    expect(timecodeAt(film.tb, (24 * 1001) / 24000)).toBe('01:00:00:00');
  });

  it('a clip without one counts from 00:00:00:00 (drop-frame at 29.97)', async () => {
    const { info, tb } = await timebaseOf(files.none!);
    expect(info.timecode).toBeNull();
    expect(timecodeAt(tb, 0)).toBe('00:00:00;00');
    expect(timecodeAt(tb, 1)).toBe('00:00:00;29');
  });
});
