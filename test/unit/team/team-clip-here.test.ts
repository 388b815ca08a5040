import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryOf, fileHere } from '../../../src-main/core/team/syncs/clip-arrivals';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import type { PublishedTeamClip } from '../../../src-main/core/team/server/team-clip-store';
import { tempDir } from '../../helpers/paths';

/**
 * A team clip's place comes from another seat's row: it is looked for only on this seat's drive,
 * never through '..' or a link on the share that leads out of it (issue 41, item 1), and what is
 * found there is the clip only with the clip's content, not only its size (issue 40, item 2).
 */
describe('where a team clip is on this seat', () => {
  let tmp: { dir: string; cleanup: () => void };
  let drive: string;
  let content: string;
  const SIZE = 1234;
  const bytes = (seed: string) => createHash('sha256').update(seed).digest('hex').repeat(SIZE).slice(0, SIZE);
  const clip = (relPath: string, sizeBytes = SIZE): PublishedTeamClip => ({ id: 1, fingerprint: content, sizeBytes, fileName: path.basename(relPath), locations: [{ rootKey: 'card', relPath }] });
  const drives = () => [{ mountPath: drive, rootKey: 'card' }];

  beforeEach(async () => {
    tmp = tempDir('rs-team-here-');
    drive = path.join(tmp.dir, 'card');
    fs.mkdirSync(path.join(drive, 'day1'), { recursive: true });
    fs.writeFileSync(path.join(drive, 'day1', 'a.mp4'), bytes('clip'));
    // The clip's very bytes, off the share: found only by escaping it.
    fs.writeFileSync(path.join(tmp.dir, 'secret.mp4'), bytes('clip'));
    content = await fingerprintFile(path.join(drive, 'day1', 'a.mp4'));
  });
  afterEach(() => tmp.cleanup());

  it('finds the file with the clip content on the drive, by the path the drive names it', async () => {
    expect(await fileHere(clip('day1/a.mp4'), [], drives())).toEqual({ file: path.join(drive, 'day1', 'a.mp4'), refused: [] });
    expect(await fileHere(clip('day1/missing.mp4'), [], drives())).toEqual({ file: null, refused: [] });
  });

  it('refuses a file of another size, and one of the same size with other content', async () => {
    fs.writeFileSync(path.join(drive, 'day1', 'b.mp4'), bytes('another clip'));
    expect((await fileHere(clip('day1/a.mp4', 99), [], drives())).refused).toEqual([{ place: path.join(drive, 'day1', 'a.mp4'), reason: 'other_content' }]);
    expect(await fileHere(clip('day1/b.mp4'), [], drives())).toEqual({ file: null, refused: [{ place: path.join(drive, 'day1', 'b.mp4'), reason: 'other_content' }] });
  });

  it('does not join a place that climbs out of the drive', async () => {
    expect(await fileHere(clip('../secret.mp4'), [], drives())).toEqual({ file: null, refused: [{ place: '../secret.mp4', reason: 'unsafe_path' }] });
    expect((await fileHere(clip('day1/../../secret.mp4'), [], drives())).refused).toMatchObject([{ reason: 'unsafe_path' }]);
    expect((await fileHere(clip('/etc/passwd'), [], drives())).refused).toMatchObject([{ reason: 'unsafe_path' }]);
  });

  it('does not take a folder for a clip', async () => {
    const folder = clip('day1');
    expect(await fileHere({ ...folder, sizeBytes: fs.statSync(path.join(drive, 'day1')).size }, [], drives())).toEqual({ file: null, refused: [{ place: path.join(drive, 'day1'), reason: 'not_a_file' }] });
  });

  it('does not follow a link on the share that leads out of it, as a file or as a folder', async () => {
    fs.symlinkSync(path.join(tmp.dir, 'secret.mp4'), path.join(drive, 'day1', 'b.mp4'));
    fs.symlinkSync(tmp.dir, path.join(drive, 'out'));
    expect(await fileHere(clip('day1/b.mp4'), [], drives())).toEqual({ file: null, refused: [{ place: path.join(drive, 'day1', 'b.mp4'), reason: 'outside_share' }] });
    expect((await fileHere(clip('out/secret.mp4'), [], drives())).refused).toMatchObject([{ reason: 'outside_share' }]);
  });

  it('follows a link that stays on the share (a clip moved with a link left in its place)', async () => {
    fs.symlinkSync(path.join(drive, 'day1', 'a.mp4'), path.join(drive, 'day1', 'moved.mp4'));
    expect((await fileHere(clip('day1/moved.mp4'), [], drives())).file).toBe(path.join(drive, 'day1', 'moved.mp4'));
  });
});

describe('where an offline entry says a team clip is (issue 40 item 4)', () => {
  const fp = 'a'.repeat(64);
  const clip = (fileName: string, locations: PublishedTeamClip['locations']): PublishedTeamClip => ({ id: 7, fingerprint: fp, sizeBytes: 10, fileName, locations });

  it('is the latest plain path a seat recorded, on its share', () => {
    expect(entryOf(clip('A001.mov', [{ rootKey: 'nas', relPath: 'Jobs/Tide/A001.mov' }, { rootKey: 'card', relPath: 'DCIM/A001.mov' }]))).toEqual({
      rootKey: 'nas',
      relPath: 'Jobs/Tide/A001.mov',
      fileName: 'A001.mov',
      sizeBytes: 10,
      fingerprint: fp,
    });
  });

  it('never shows a refused place as a path: the next safe one, else the clip\'s name on the share, else its number', () => {
    expect(entryOf(clip('A001.mov', [{ rootKey: 'nas', relPath: '../../etc/A001.mov' }, { rootKey: 'card', relPath: 'DCIM/A001.mov' }])).relPath).toBe('DCIM/A001.mov');
    expect(entryOf(clip('A001.mov', [{ rootKey: 'nas', relPath: '../../etc/A001.mov' }]))).toMatchObject({ rootKey: 'nas', relPath: 'A001.mov', fileName: 'A001.mov' });
    expect(entryOf(clip('x/../y.mov', [{ rootKey: 'nas', relPath: '/etc/passwd' }]))).toMatchObject({ rootKey: 'nas', relPath: 'team clip 7', fileName: 'team clip 7' });
    expect(entryOf(clip('A001.mov', []))).toMatchObject({ rootKey: 'team', relPath: 'A001.mov' });
  });
});
