import { describe, expect, it } from 'vitest';
import { firstGridAt, gridSpanOfPicture, pictureAt, pictureOfGrid, timeInPicture } from '../../../src-shared/picture-grid';
import { MAX_SEEK_TRIES, nextPicture, pictureGrid, type PicturePhase } from '../../../src-renderer/src/components/viewer/presented-frame';
import { parsePictureTimes } from '../../../src-main/core/media/probe';
import { vfrPhoneTimes } from '../../helpers/footage/playback-footage';

const r30 = { num: 30, den: 1 };
const ticks = (t: number) => t / 90000;
// The phone clip's first pictures: 0, 3700, 7000, 9300, 12600 ticks of 1/90000 s; the 30 fps grid every 3000.
const head = [0, 3700, 7000, 9300, 12600].map(ticks);

describe('the picture grid of a conformed clip', () => {
  it('shows at grid position k the last picture at or before k / rate, as a paused player sought there', () => {
    expect([0, 1, 2, 3, 4, 5].map((k) => pictureOfGrid(head, k, r30))).toEqual([0, 0, 1, 2, 3, 4]);
    // A picture exactly on a grid time, even printed a microsecond early, is that position's.
    expect(pictureOfGrid([0, 0.066666], 2, r30)).toBe(1);
    expect(pictureAt(head, -1)).toBe(0);
  });

  it('reads a picture out as the first grid position showing it; a picture two of which share a grid frame shows at none', () => {
    expect(head.map((_, i) => gridSpanOfPicture(head, i, r30))).toEqual([
      { frame: 0, end: 2 },
      { frame: 2, end: 3 },
      { frame: 3, end: 4 },
      { frame: 4, end: 5 },
      { frame: 5, end: Number.POSITIVE_INFINITY },
    ]);
    expect(gridSpanOfPicture([0, ticks(3100), ticks(5400), ticks(9000)], 1, r30)).toEqual({ frame: 2, end: 2 });
    expect(firstGridAt(0.066666, r30)).toBe(2);
    expect(firstGridAt(ticks(6001), r30)).toBe(3);
  });

  it('on the whole phone clip (30 fps with jitter, 20 fps half way): every grid position is sought inside its picture, and the picture presented there reads back as it', () => {
    const times = vfrPhoneTimes(90);
    const grid = pictureGrid(r30, times);
    const last = Math.round(times.at(-1)! * 30);
    let held = 0;
    for (let k = 0; k <= last; k++) {
      const i = pictureOfGrid(times, k, r30);
      if (k > 0 && pictureOfGrid(times, k - 1, r30) === i) held++;
      for (let attempt = 0; attempt < MAX_SEEK_TRIES; attempt++) {
        const t = grid.seekTime(k, attempt);
        expect(pictureAt(times, t), `k ${k} try ${attempt}`).toBe(i);
        const shown = grid.shownAt(t);
        expect(k >= shown.frame && k < shown.end, `k ${k}`).toBe(true);
      }
      // The machine settles a seek to k on that picture and reads out k.
      const sought = nextPicture({ phase: 'settled', frame: 0, tries: 0 }, { type: 'seek', frame: k });
      const landed = nextPicture(sought.state, { type: 'seeked' });
      const judged = nextPicture(landed.state, { type: 'presented', ...grid.shownAt(grid.seekTime(k, 0)) });
      expect(judged.state).toEqual<PicturePhase>({ phase: 'settled', frame: k, tries: 1 });
      expect(sought.readout).toBe(k);
    }
    // At 20 fps on the 30 fps grid pictures hold for a grid frame more now and then.
    expect(held).toBeGreaterThan(10);
    // Each picture shown somewhere reads out as a grid position that shows it.
    for (let i = 0; i < times.length; i++) {
      const span = gridSpanOfPicture(times, i, r30);
      if (span.end > span.frame) expect(pictureOfGrid(times, span.frame, r30), `picture ${i}`).toBe(i);
    }
    expect(timeInPicture(times, 89, 0.5)).toBeGreaterThan(times[89]!);
  });

  it('a stop after play settles on the grid position the last picture presented reads as, and a picture of another position is sought again', () => {
    const times = vfrPhoneTimes(90);
    const grid = pictureGrid(r30, times);
    const playing = nextPicture({ phase: 'playing' }, { type: 'presented', ...grid.shownAt(times[60]!) });
    const k = gridSpanOfPicture(times, 60, r30).frame;
    expect(playing.readout).toBe(k);
    const stop = nextPicture(playing.state, { type: 'stop', shown: k });
    const wrong = nextPicture({ phase: 'seeking', target: k, tries: 1, landed: true, seen: null }, { type: 'presented', ...grid.shownAt(times[58]!) });
    expect(wrong.seek).toEqual({ frame: k, attempt: 1 });
    expect(stop.readout).toBe(k);
  });

  it('without times (a clip counted at its own rate) frame k is the picture at k / rate', () => {
    const grid = pictureGrid({ num: 25, den: 1 }, null);
    expect(grid.shownAt(5.8)).toEqual({ frame: 145, end: 146 });
    expect(grid.seekTime(145, 0)).toBeCloseTo(145.5 / 25, 9);
  });
});

describe("ffprobe's presentation times, read tolerantly", () => {
  it('puts packets in presentation order on the stream clock, skips untimed ones, and gives null without a clock or a time', () => {
    expect(parsePictureTimes('packet,3700\nstream,1/90000\npacket,0\npacket,N/A\npacket,7000\n')).toEqual([0, 3700 / 90000, 7000 / 90000]);
    expect(parsePictureTimes('stream,1001/30000\npacket,2\npacket,1\n')).toEqual([1001 / 30000, 2002 / 30000]);
    // Packets an edit list hides (flagged D, discard: a MOV trimmed with -c copy) are no picture a player presents.
    expect(parsePictureTimes('stream,1/12800\npacket,-1024,KD_\npacket,512,___\npacket,-512,_D_\npacket,0,___\n')).toEqual([0, 512 / 12800]);
    expect(parsePictureTimes('packet,1\n')).toBeNull();
    expect(parsePictureTimes('stream,0/1\npacket,1\n')).toBeNull();
    expect(parsePictureTimes('stream,1/90000\n')).toBeNull();
  });
});
