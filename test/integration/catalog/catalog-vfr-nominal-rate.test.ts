import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { parseRate } from '../../../src-main/core/media/probe-parse';
import { probeFile, readPictureTimes, type ProbeOutcome } from '../../../src-main/core/media/probe';
import { verdictFor } from '../../../src-main/core/library/probe-outcome';
import { pictureTimesOf } from '../../../src-main/core/proxies/picture-times-store';
import { firstGridAt } from '../../../src-shared/picture-grid';
import { countingOf, framesToTimecode } from '../../../src-shared/timecode';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const videoStream = (p: ProbeOutcome) => (p.raw as { streams: { codec_type: string; r_frame_rate: string; avg_frame_rate: string }[] }).streams.find((s) => s.codec_type === 'video')!;

/**
 * The VFR phone clip (30 fps with jitter, 20 fps half way, on a 1/90000 clock) probed by the app
 * with the bundled ffprobe: counted at 30, the rate it was shot at, which its first pictures show,
 * where ffprobe's r_frame_rate is the clock's tick and its average 24.19 (counted at 24 before);
 * a constant-rate clip as before. Then migration 0063 on a catalog file an older app left.
 */
describe("a VFR clip's nominal rate, from its pictures", () => {
  it('probes the phone clip at 30 (conformed, timecode on a 30 grid) and a constant-rate clip at its own rate', async () => {
    const [phone, cfr] = await makePlaybackFootage(undefined, ['h264-vfr-phone', 'h264-25']);
    const p = await probeFile(phone!.file);
    expect(videoStream(p).r_frame_rate).toBe('90000/1');
    const average = parseRate(videoStream(p).avg_frame_rate)!;
    expect(average).toBeCloseTo(24.19, 2);
    expect(countingOf(average, true).rate).toEqual({ num: 24, den: 1 });
    expect(p.info.vfr).toBe(true);
    expect(p.info.fps).toBe(30);
    const counting = countingOf(p.info.fps, p.info.vfr);
    expect(counting).toEqual({ rate: { num: 30, den: 1 }, conformed: true });
    // The card's note gives the average (the frames over the duration), the rate it is counted at beside it: not 30 called an average.
    expect(verdictFor(p.info).reason).toBe(`variable frame rate (${((p.info.frameCount ?? 0) / (p.info.durationS ?? 1)).toFixed(2)} fps average)`);
    expect(verdictFor(p.info).reason).toMatch(/^variable frame rate \(2[0-9]\.\d\d fps average\)$/);
    // Positions stay the pictures' times; the timecode is read on the 30 grid: the last picture, at 3.71 s, first shows at 00:00:03:22 (at 24, 03:18).
    const last = phone!.ptsSeconds!.at(-1)!;
    expect(last).toBeCloseTo(3.71, 6);
    expect(framesToTimecode(firstGridAt(last, counting.rate), counting.rate, false)).toBe('00:00:03:22');
    expect(framesToTimecode(firstGridAt(last, { num: 24, den: 1 }), { num: 24, den: 1 }, false)).toBe('00:00:03:18');
    const c = await probeFile(cfr!.file);
    expect([c.info.vfr, c.info.fps]).toEqual([false, 25]);
    expect(countingOf(c.info.fps, c.info.vfr)).toEqual({ rate: { num: 25, den: 1 }, conformed: false });
  }, 60_000);

  it('migration 0063 moves a VFR clip whose times the viewer read onto that rate, leaves the others, and forgets every kept time', async () => {
    const [phone] = await makePlaybackFootage(undefined, ['h264-vfr-phone']);
    const times = (await readPictureTimes(phone!.file))!;
    const before = await probeFile(phone!.file);
    const average = parseRate(videoStream(before).avg_frame_rate)!;
    const { file, old } = catalogAtVersion(61, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'done', ?, ?, ?, 1, 1)`);
    clip.run(1, 'phone.mp4', 'phone.mp4', average, 1, 'fp-phone');
    // The same clip, its times read from content it no longer has; and one whose times were never read.
    clip.run(2, 'edited.mp4', 'edited.mp4', average, 1, 'fp-edited');
    clip.run(3, 'unseen.mp4', 'unseen.mp4', average, 1, 'fp-unseen');
    clip.run(4, 'cfr.mp4', 'cfr.mp4', 25, 0, 'fp-cfr');
    const keep = old.prepare('INSERT INTO picture_times (clip_id, fingerprint, times) VALUES (?, ?, ?)');
    const blob = Buffer.from(Float64Array.from(times).buffer);
    keep.run(1, 'fp-phone', blob);
    keep.run(2, 'fp-before-edit', blob);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const fps = (id: number) => (db.prepare('SELECT fps FROM clips WHERE id = ?').get(id) as { fps: number }).fps;
    // What a probe stores today.
    expect(fps(1)).toBe(before.info.fps);
    expect(fps(1)).toBe(30);
    expect([fps(2), fps(3), fps(4)]).toEqual([average, average, 25]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM picture_times').get()).toEqual({ n: 0 });
    expect(pictureTimesOf(db, 1, 'fp-phone')).toBeNull();
  }, 60_000);
});
