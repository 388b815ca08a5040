import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import { URL_VOLUME_KEY } from '../../../src-main/core/library/volume-store';
import { clipsWithRateUnread, getClipRow } from '../../../src-main/core/library/clip-store';
import { recordPictureRate, resetClipContent } from '../../../src-main/core/library/clips-repository';
import { probeClip } from '../../../src-main/core/pipeline/stages/clip-media';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * Migration 0064 on a catalog file an app at 0063 left: every VFR clip of a file is marked for the
 * background rate reading (0063 moved some, and cannot tell which), its rate untouched; constant-
 * rate clips, clips without a picture and clips added by URL are not. A probe reads the rate from
 * the pictures itself, so probing a marked clip clears its mark (and a clip probed from now on is
 * never marked).
 */
describe('migration 0064: VFR clips whose rate was not read from their pictures are marked', () => {
  it('marks the VFR clips of files, leaves their rate, and a probe clears the mark', async () => {
    const [phone] = await makePlaybackFootage(undefined, ['h264-vfr-phone']);
    const tmp = tempDir('rs-rate-unread-');
    cleanups.push(tmp.cleanup);
    const file = path.join(tmp.dir, 'phone.mp4');
    fs.copyFileSync(phone!.file, file);
    const st = fs.statSync(file);

    const { file: catalog, old } = catalogAtVersion(63, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', ?, 1, 1), (2, ?, '', 1, 1)`).run(tmp.dir, URL_VOLUME_KEY);
    const clip = old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, source_url, probed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?, 1, 1, 1)`,
    );
    clip.run(1, 1, 'phone.mp4', 'phone.mp4', st.size, Math.floor(st.mtimeMs), 24.19, 1, await fingerprintFile(file, st.size), null);
    clip.run(2, 1, 'cfr.mp4', 'cfr.mp4', 1, 1, 25, 0, 'fp-cfr', null);
    clip.run(3, 1, 'sound.wav', 'sound.wav', 1, 1, null, null, 'fp-sound', null);
    clip.run(4, 2, 'https://example.com/v.mp4', 'v.mp4', 0, 0, 24.19, 1, null, 'https://example.com/v.mp4');
    old.close();

    const db = openCatalog(catalog);
    cleanups.unshift(() => db.close());
    const rows = () => db.prepare('SELECT id, fps, rate_unread FROM clips ORDER BY id').all();
    expect(rows()).toEqual([
      { id: 1, fps: 24.19, rate_unread: 1 },
      { id: 2, fps: 25, rate_unread: 0 },
      { id: 3, fps: null, rate_unread: 0 },
      { id: 4, fps: 24.19, rate_unread: 0 },
    ]);
    expect(() => db.prepare('UPDATE clips SET rate_unread = 2 WHERE id = 1').run()).toThrow(/CHECK constraint/);

    // The app's probe (real ffprobe) reads the rate from the pictures and clears the mark.
    expect(await probeClip(db, 1)).toBe('probed');
    expect(rows()[0]).toEqual({ id: 1, fps: 30, rate_unread: 0 });
  }, 60_000);

  it('hands the background only indexed clips, and a content reset leaves it nothing to write', () => {
    const { file: catalog, old } = catalogAtVersion(63, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/media', 1, 1)`).run();
    const clip = old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, probed_at, created_at, updated_at)
       VALUES (?, 1, ?, ?, 10, 1, ?, 24.19, 1, ?, 1, 1, 1)`,
    );
    clip.run(1, 'a.mp4', 'a.mp4', 'done', 'fp-a');
    clip.run(2, 'b.mp4', 'b.mp4', 'probed', 'fp-b');
    old.close();
    const db = openCatalog(catalog);
    cleanups.unshift(() => db.close());
    // Clip 2 is still being indexed: its rate is read once its indexing is over, never ahead of it.
    expect(clipsWithRateUnread(db)).toEqual([1]);
    expect(clipsWithRateUnread(db, 2)).toEqual([]);
    db.prepare(`UPDATE clips SET status = 'done' WHERE id = 2`).run();
    expect(clipsWithRateUnread(db, 2)).toEqual([2]);
    // A reading that started before the file's content was replaced: the reset clears the mark, the reading writes nothing.
    const before = getClipRow(db, 1);
    resetClipContent(db, 1, { size: 20, mtimeMs: 2, fingerprint: 'fp-a' });
    expect(db.prepare('SELECT fps, vfr, rate_unread FROM clips WHERE id = 1').get()).toEqual({ fps: null, vfr: null, rate_unread: 0 });
    expect(recordPictureRate(db, before, 30)).toBe(false);
    expect(db.prepare('SELECT fps FROM clips WHERE id = 1').get()).toEqual({ fps: null });
    expect(recordPictureRate(db, getClipRow(db, 2), 30)).toBe(true);
    expect(db.prepare('SELECT fps, rate_unread FROM clips WHERE id = 2').get()).toEqual({ fps: 30, rate_unread: 0 });
  });
});
