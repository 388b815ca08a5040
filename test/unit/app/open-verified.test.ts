import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { identityOf, openUnder, openVerified, readUnder, type OpenedFile } from '../../../src-main/core/util/open-verified';
import { tempDir } from '../../helpers/paths';

/** util/open-verified.ts: one open, no link followed, the descriptor proven to be the file meant. */
describe('openVerified', () => {
  let tmp: { dir: string; cleanup: () => void };
  let file: string;
  let secret: string;
  const opened: OpenedFile[] = [];

  const open = async (...args: Parameters<typeof openVerified>) => {
    const r = await openVerified(...args);
    if (!(r instanceof AppError)) opened.push(r);
    return r;
  };
  const read = async (f: OpenedFile) => {
    const buf = Buffer.alloc(f.identity.size);
    await f.handle.read(buf, 0, buf.length, 0);
    return buf.toString();
  };

  beforeEach(() => {
    tmp = tempDir('rs-open-verified-');
    file = path.join(tmp.dir, 'clip.mp4');
    secret = path.join(tmp.dir, 'secret.txt');
    fs.writeFileSync(file, 'clip bytes');
    fs.writeFileSync(secret, 'the secret');
  });
  afterEach(async () => {
    for (const f of opened.splice(0)) await f.handle.close().catch(() => undefined);
    tmp.cleanup();
  });

  it('opens a regular file and reads it from the descriptor, even once its path is a link to another file', async () => {
    const f = await open(file);
    if (f instanceof AppError) throw f;
    expect(f.real).toBe(fs.realpathSync(file));
    expect(f.identity.size).toBe(10);
    fs.renameSync(file, file + '.away');
    fs.symlinkSync(secret, file);
    expect(await read(f)).toBe('clip bytes');
  });

  it('follows a link to where the file really is (a moved clip), and opens that real file', async () => {
    const link = path.join(tmp.dir, 'moved.mp4');
    fs.symlinkSync(file, link);
    const f = await open(link);
    if (f instanceof AppError) throw f;
    expect(f.real).toBe(fs.realpathSync(file));
  });

  it('refuses what is not a regular file, and what is gone', async () => {
    expect(await open(tmp.dir)).toMatchObject({ kind: 'invalid' });
    expect(await open(path.join(tmp.dir, 'none'))).toMatchObject({ kind: 'not_found' });
  });

  it('refuses a file swapped for another one (another inode) since it was seen', async () => {
    const first = await open(file);
    if (first instanceof AppError) throw first;
    fs.rmSync(file);
    fs.writeFileSync(file, 'clip bytes');
    expect(await open(file, { expect: first.identity })).toMatchObject({ kind: 'invalid' });
  });

  it('refuses the same file once its size changed', async () => {
    const first = await open(file);
    if (first instanceof AppError) throw first;
    fs.appendFileSync(file, ' and more');
    const now = identityOf(fs.statSync(file));
    // Only the size differs from what was seen (same device, inode and date).
    expect(await open(file, { expect: { ...now, size: first.identity.size } })).toMatchObject({ kind: 'invalid' });
    expect(await open(file, { expect: now })).not.toBeInstanceOf(AppError);
  });

  it.skipIf(process.platform === 'win32')('refuses a link swapped in between its real path and its open (O_NOFOLLOW)', async () => {
    // The race, stepped by hand: the path is resolved while it is a file, then is a link at the open.
    const realpath = fs.promises.realpath;
    fs.promises.realpath = (async (p: fs.PathLike) => {
      const r = await realpath(p);
      if (!fs.lstatSync(file).isSymbolicLink()) {
        fs.renameSync(file, file + '.away');
        fs.symlinkSync(secret, file);
      }
      return r;
    }) as typeof realpath;
    try {
      expect(await open(file)).toMatchObject({ kind: 'invalid' });
    } finally {
      fs.promises.realpath = realpath;
    }
  });

  it('refuses a file whose folder was swapped for a link between its real path and its open', async () => {
    const dir = path.join(tmp.dir, 'card');
    const elsewhere = path.join(tmp.dir, 'elsewhere');
    fs.mkdirSync(dir);
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(dir, 'a.mp4'), 'clip bytes');
    fs.writeFileSync(path.join(elsewhere, 'a.mp4'), 'the secret');
    const realpath = fs.promises.realpath;
    let calls = 0;
    fs.promises.realpath = (async (p: fs.PathLike) => {
      const r = await realpath(p);
      // After the first resolve, the folder becomes a link to another folder with a file of the same name.
      if (calls++ === 0) {
        fs.renameSync(dir, dir + '.away');
        fs.symlinkSync(elsewhere, dir);
      }
      return r;
    }) as typeof realpath;
    try {
      expect(await open(path.join(dir, 'a.mp4'))).toMatchObject({ kind: 'invalid' });
    } finally {
      fs.promises.realpath = realpath;
    }
  });

  it('openUnder refuses a link out of its folder, and a path that climbs out', async () => {
    const root = path.join(tmp.dir, 'thumbs');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'ok.jpg'), 'jpeg');
    fs.symlinkSync(secret, path.join(root, 'evil.jpg'));
    const ok = await openUnder(root, 'ok.jpg');
    if (ok instanceof AppError) throw ok;
    opened.push(ok);
    expect(await openUnder(root, 'evil.jpg')).toMatchObject({ kind: 'not_found' });
    expect(await openUnder(root, '../secret.txt')).toMatchObject({ kind: 'not_found' });
  });

  it('readUnder reads a poster from its checked descriptor, and refuses a link in its place or a file too big', async () => {
    const root = path.join(tmp.dir, 'thumbs');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'poster.jpg'), 'jpeg bytes');
    expect((await readUnder(root, 'poster.jpg', 100)).toString()).toBe('jpeg bytes');
    expect(await readUnder(root, 'poster.jpg', 5)).toMatchObject({ kind: 'too_large' });
    fs.rmSync(path.join(root, 'poster.jpg'));
    fs.symlinkSync(secret, path.join(root, 'poster.jpg'));
    expect(await readUnder(root, 'poster.jpg', 100)).toMatchObject({ kind: 'not_found' });
  });
});
