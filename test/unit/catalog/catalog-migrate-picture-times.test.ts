import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { pictureTimesOf, recordPictureTimes } from '../../../src-main/core/proxies/picture-times-store';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 0057: picture times of conformed clips', () => {
  it("forgets the proxies of VFR clips (their times were rounded) and keeps the others'; the times round-trip for the content they were read from", () => {
    const { file, old } = catalogAtVersion(56, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'done', ?, ?, ?, 1, 1)`);
    clip.run(1, 'phone.mp4', 'phone.mp4', 24.19, 1, 'fp-phone');
    clip.run(2, 'a.mov', 'a.mov', 25, 0, 'fp-a');
    const proxy = old.prepare('INSERT INTO proxies (clip_id, file, fingerprint, bytes, frames, made_at, used_at) VALUES (?, ?, ?, 10, 90, 1, 1)');
    proxy.run(1, 'proxies/1-fpphone.mp4', 'fp-phone');
    proxy.run(2, 'proxies/2-fpa.mp4', 'fp-a');
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    expect(db.prepare('SELECT clip_id FROM proxies ORDER BY clip_id').all()).toEqual([{ clip_id: 2 }]);
    const times = [0, 3700 / 90000, 7000 / 90000, 1 / 3];
    recordPictureTimes(db, 1, 'fp-phone', times);
    expect(pictureTimesOf(db, 1, 'fp-phone')).toEqual(times);
    // Read from other content: not served.
    expect(pictureTimesOf(db, 1, 'fp-other')).toBeNull();
    expect(pictureTimesOf(db, 2, 'fp-a')).toBeNull();
    // The clip goes, its times with it.
    db.prepare('DELETE FROM clips WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM picture_times').get()).toEqual({ n: 0 });
  });
});
