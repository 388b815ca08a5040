import { describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { catalogueClip } from '../../../src-main/core/library/clips-repository';
import { clipForExport, getClipRow, pathOf } from '../../../src-main/core/library/clip-store';
import { clipIdsBelow } from '../../../src-main/core/library/clip-place-store';
import { upsertVolume, URL_VOLUME_KEY } from '../../../src-main/core/library/volume-store';
import { catalogPerTest } from '../../helpers/catalog/catalog-per-test';
import { insertClip, insertVolume } from '../../helpers/catalog/search-catalog';

/** The clips owner's named writes and reads on a real catalog file. */

let db: CatalogDb;
catalogPerTest((opened) => (db = opened));

const webVolume = () => upsertVolume(db, { key: URL_VOLUME_KEY, mountPath: '', label: 'Web' });
const file = { sizeBytes: 1000, mtimeMs: 1, fingerprint: 'f' };

describe('catalogueClip: a new row in the lifecycle first state', () => {
  it('a file is pending, an empty file has failed already with the reason the card shows, an address is pending', () => {
    const root = insertVolume(db, '/');
    const a = catalogueClip(db, { volumeId: root, relPath: 'footage/a.mp4', fileName: 'a.mp4', ...file });
    const empty = catalogueClip(db, { volumeId: root, relPath: 'footage/empty.mp4', fileName: 'empty.mp4', ...file, sizeBytes: 0 });
    const url = 'https://example.org/v.mp4';
    const web = catalogueClip(db, { volumeId: webVolume(), relPath: url, fileName: 'v.mp4', ...file, sizeBytes: 0, fingerprint: null, sourceUrl: url });
    expect(getClipRow(db, a)).toMatchObject({ status: 'pending', status_reason: null, error_kind: null, shots_at: null, thumbs_at: null });
    expect(getClipRow(db, empty)).toMatchObject({ status: 'error', status_reason: 'empty file (0 bytes)', error_kind: 'media' });
    expect(getClipRow(db, web)).toMatchObject({ status: 'pending', status_reason: null, source_url: url });
  });
});

describe('pathOf: clip id -> its file', () => {
  it('is the path on the drive as mounted now, the address of a clip added by URL, null for no clip', () => {
    const card = insertVolume(db, '/media/me/CARD', 'card-uuid');
    const id = insertClip(db, { volumeId: card, relPath: 'DCIM/C0001.MP4', fingerprint: 'fp' });
    db.prepare('UPDATE volumes SET online = 0, mount_path = ? WHERE id = ?').run('/media/me/CARD1', card);
    expect(pathOf(db, id)).toMatchObject({ path: '/media/me/CARD1/DCIM/C0001.MP4', fileName: 'C0001.MP4', online: false, missing: false, sourceUrl: null, fingerprint: 'fp' });
    const url = 'https://example.org/v.mp4';
    const web = catalogueClip(db, { volumeId: webVolume(), relPath: url, fileName: 'v.mp4', ...file, sourceUrl: url });
    expect(pathOf(db, web)).toMatchObject({ path: url, sourceUrl: url });
    expect(pathOf(db, 9999)).toBeNull();
  });
});

describe('clipIdsBelow: the clips attaching a folder takes', () => {
  it('takes the clips below the folder on the drive that holds it and on every drive mounted inside it, nothing beside it and no address', () => {
    const root = insertVolume(db, '/');
    const card = insertVolume(db, '/media/me/CARD');
    const mine = insertClip(db, { volumeId: root, relPath: 'media/me/day1/a.mp4' });
    insertClip(db, { volumeId: root, relPath: 'media/meat/b.mp4' });
    insertClip(db, { volumeId: root, relPath: 'home/me/c.mp4' });
    const onCard = insertClip(db, { volumeId: card, relPath: 'DCIM/C0001.MP4' });
    const url = 'https://example.org/media/me/v.mp4';
    catalogueClip(db, { volumeId: webVolume(), relPath: url, fileName: 'v.mp4', ...file, sourceUrl: url });
    expect(clipIdsBelow(db, '/media/me')).toEqual([mine, onCard]);
    expect(clipIdsBelow(db, '/media/me/CARD')).toEqual([onCard]);
    expect(clipIdsBelow(db, '/media/me/day1')).toEqual([mine]);
    expect(clipIdsBelow(db, '/media/me/day2')).toEqual([]);
    expect(clipIdsBelow(db, '/')).toHaveLength(4);
  });
});

describe('clipForExport: what a hand-off file says of a clip', () => {
  it('is its file, time base, picture and sound as stored, the audio layout decoded, and not_found for no clip', () => {
    const root = insertVolume(db, '/Volumes/CARD');
    const id = insertClip(db, { volumeId: root, relPath: 'A001/C0001.mov', durationS: 12.5, fps: 23.976, width: 3840, height: 2160 });
    db.prepare("UPDATE clips SET vfr = 1, frame_count = 300, timecode = '01:00:00:00', reel_name = 'A001', audio_layout = '[2,1,1]', audio_channels = 2, audio_rate = 48000 WHERE id = ?").run(id);
    expect(clipForExport(db, id)).toEqual({
      id,
      fileName: 'C0001.mov',
      path: '/Volumes/CARD/A001/C0001.mov',
      sourceUrl: null,
      teamShare: null,
      fps: 23.976,
      vfr: true,
      durationS: 12.5,
      frameCount: 300,
      timecode: '01:00:00:00',
      width: 3840,
      height: 2160,
      reel: 'A001',
      audioLayout: [2, 1, 1],
      audioRate: 48000,
    });
    // A catalog from before the layout column: the first stream's channels stand in.
    db.prepare('UPDATE clips SET audio_layout = NULL WHERE id = ?').run(id);
    expect(clipForExport(db, id).audioLayout).toEqual([2]);
    expect(() => clipForExport(db, id + 999)).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });
});
