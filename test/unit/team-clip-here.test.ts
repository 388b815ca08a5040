import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileHere } from '../../src-main/core/library/team-clip-arrivals';
import type { PublishedTeamClip } from '../../src-main/core/team/server/team-clip-store';
import { tempDir } from '../helpers/paths';

/**
 * A team clip's place comes from another seat's row: it is looked for only on this seat's drive,
 * never through '..' or a link on the share that leads out of it (issue 41, item 1).
 */
describe('where a team clip is on this seat', () => {
  let tmp: { dir: string; cleanup: () => void };
  let drive: string;
  const SECRET = 'x'.repeat(1234);
  const clip = (relPath: string, sizeBytes = 1234): PublishedTeamClip => ({ id: 1, fingerprint: 'f', sizeBytes, fileName: path.basename(relPath), locations: [{ rootKey: 'card', relPath }] });
  const drives = () => [{ mountPath: drive, rootKey: 'card' }];

  beforeEach(() => {
    tmp = tempDir('rs-team-here-');
    drive = path.join(tmp.dir, 'card');
    fs.mkdirSync(path.join(drive, 'day1'), { recursive: true });
    fs.writeFileSync(path.join(drive, 'day1', 'a.mp4'), Buffer.alloc(1234));
    fs.writeFileSync(path.join(tmp.dir, 'secret.mp4'), SECRET);
  });
  afterEach(() => tmp.cleanup());

  it('finds the file of the clip size on the drive, by the path the drive names it', async () => {
    expect(await fileHere(clip('day1/a.mp4'), [], drives())).toBe(path.join(drive, 'day1', 'a.mp4'));
    expect(await fileHere(clip('day1/a.mp4', 99), [], drives())).toBeNull();
  });

  it('does not follow a place that climbs out of the drive', async () => {
    expect(await fileHere(clip('../secret.mp4'), [], drives())).toBeNull();
    expect(await fileHere(clip('day1/../../secret.mp4'), [], drives())).toBeNull();
  });

  it('does not follow a link on the share that leads out of it, as a file or as a folder', async () => {
    fs.symlinkSync(path.join(tmp.dir, 'secret.mp4'), path.join(drive, 'day1', 'b.mp4'));
    fs.symlinkSync(tmp.dir, path.join(drive, 'out'));
    expect(await fileHere(clip('day1/b.mp4'), [], drives())).toBeNull();
    expect(await fileHere(clip('out/secret.mp4'), [], drives())).toBeNull();
  });
});
