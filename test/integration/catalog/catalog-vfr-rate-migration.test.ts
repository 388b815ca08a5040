import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { frameSync } from '../../../src-main/core/media/frame-sync';
import { parseRate } from '../../../src-main/core/media/probe-parse';
import { probeFile, type ProbeOutcome } from '../../../src-main/core/media/probe';
import { countingOf } from '../../../src-shared/timecode';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { tempDir } from '../../helpers/paths';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * Migration 0058 on a catalog file made with the migrations before it, holding the ffprobe answers
 * (the app's probe, the bundled ffprobe) of real clips as an app before the nominal rate stored
 * them, a VFR clip at its average rate: a camera-style VFR clip (1 s at 30 fps, then 1 s at 10,
 * r_frame_rate 30: counted at 30 now, at 23.976 before), the VFR phone clip on a 1/90000 clock (its
 * r_frame_rate is the clock's, so the average stands, before and after) and a constant-rate one.
 */
const averageOf = (p: ProbeOutcome) => parseRate((p.raw as { streams: { codec_type: string; avg_frame_rate: string }[] }).streams.find((s) => s.codec_type === 'video')!.avg_frame_rate)!;

describe('migration 0058: variable-rate clips counted at the rate they were shot at', () => {
  it('moves a VFR clip probed before onto the rate the probe now gives it, from the answer it keeps; leaves the others; forgets VFR proxies', async () => {
    const tmp = tempDir('reelscout-vfr-rate-');
    cleanups.push(tmp.cleanup);
    const camera = path.join(tmp.dir, 'camera.mp4');
    execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=160x120:r=30:d=1', '-f', 'lavfi', '-i', 'testsrc=s=160x120:r=10:d=1',
      '-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]', ...frameSync('vfr'), '-c:v', 'libx264', '-preset', 'ultrafast', camera]);
    const [phone, cfr] = await makePlaybackFootage(undefined, ['h264-vfr-phone', 'h264-25']);
    const vfr = await probeFile(camera);
    const clock = await probeFile(phone!.file);
    const constant = await probeFile(cfr!.file);
    expect([vfr.info.vfr, clock.info.vfr, constant.info.vfr]).toEqual([true, true, false]);
    // What the app stored before: the average rate, counted at 23.976 where the camera shot 30 (a fifth of its first second's pictures at no frame).
    const average = averageOf(vfr);
    expect(countingOf(average, true).rate).toEqual({ num: 24000, den: 1001 });
    expect(vfr.info.fps).toBe(30);
    // The phone clip's r_frame_rate is its clock's tick: 0058's rule leaves it at its average. The probe
    // now reads 30 from its pictures (0063 moves clips whose times were read: catalog-vfr-nominal-rate.test.ts).
    expect(clock.info.fps).toBe(30);

    const { file, old } = catalogAtVersion(57, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, probe_json, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'done', ?, ?, ?, ?, 1, 1)`);
    clip.run(1, 'camera.mp4', 'camera.mp4', average, 1, 'fp-camera', JSON.stringify(vfr.raw));
    clip.run(2, 'cfr.mp4', 'cfr.mp4', constant.info.fps, 0, 'fp-cfr', JSON.stringify(constant.raw));
    clip.run(5, 'phone.mp4', 'phone.mp4', averageOf(clock), 1, 'fp-clock', JSON.stringify(clock.raw));
    // A VFR clip whose kept answer cannot be read, and one without any: they keep their rate.
    clip.run(3, 'torn.mp4', 'torn.mp4', 23.5, 1, 'fp-torn', '{"streams": [');
    clip.run(4, 'none.mp4', 'none.mp4', 23.5, 1, 'fp-none', null);
    const proxy = old.prepare('INSERT INTO proxies (clip_id, file, fingerprint, bytes, frames, made_at, used_at) VALUES (?, ?, ?, 10, 90, 1, 1)');
    proxy.run(1, 'proxies/1-fpcamera.mp4', 'fp-camera');
    proxy.run(5, 'proxies/5-fpclock.mp4', 'fp-clock');
    proxy.run(2, 'proxies/2-fpcfr.mp4', 'fp-cfr');
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const fps = (id: number) => (db.prepare('SELECT fps FROM clips WHERE id = ?').get(id) as { fps: number }).fps;
    // The rate a new probe stores, so the clip counts at 30 as one indexed today.
    expect(fps(1)).toBe(vfr.info.fps);
    expect(countingOf(fps(1), true).rate).toEqual({ num: 30, den: 1 });
    expect(fps(2)).toBe(constant.info.fps);
    expect(fps(5)).toBe(averageOf(clock));
    expect(fps(3)).toBe(23.5);
    expect(fps(4)).toBe(23.5);
    expect(db.prepare('SELECT clip_id FROM proxies ORDER BY clip_id').all()).toEqual([{ clip_id: 2 }]);
  }, 60_000);
});
