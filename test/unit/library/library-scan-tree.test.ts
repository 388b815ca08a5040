import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanTree } from '../../../src-main/core/library/import/scan-tree';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const isRoot = process.getuid?.() === 0;

function tree(): string {
  const t = tempDir('reelscout-scan-');
  cleanups.push(t.cleanup);
  const w = (rel: string, data = 'x') => {
    fs.mkdirSync(path.dirname(path.join(t.dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(t.dir, rel), data);
  };
  w('a.mp4');
  w('B.MOV');
  w('notes.txt');
  w('sub dir/ünï côde 名前.mkv');
  w('sub dir/deeper/c.webm');
  w('.hidden.mp4');
  w('._a.mp4'); // macOS AppleDouble
  w('.cache/d.mp4');
  w('$RECYCLE.BIN/e.mp4');
  w('Thumbs.db');
  fs.symlinkSync(t.dir, path.join(t.dir, 'sub dir', 'loop')); // back to an ancestor
  fs.symlinkSync(path.join(t.dir, 'nowhere.mp4'), path.join(t.dir, 'dangling.mp4'));
  fs.symlinkSync(path.join(t.dir, 'a.mp4'), path.join(t.dir, 'alias.mp4')); // same file twice
  fs.symlinkSync(path.join(t.dir, 'sub dir', 'deeper'), path.join(t.dir, 'shortcut')); // same folder twice
  execFileSync('mkfifo', [path.join(t.dir, 'pipe.mp4')]);
  return fs.realpathSync(t.dir);
}

describe('scanTree', () => {
  it('finds videos recursively, skips and reports hidden, system, loops, dangling links and non-files', async () => {
    const root = tree();
    const res = await scanTree([root]);
    const rel = (p: string) => path.relative(root, p);
    expect(res.files.map((f) => rel(f.path)).sort()).toEqual(['B.MOV', 'a.mp4', 'sub dir/deeper/c.webm', 'sub dir/ünï côde 名前.mkv']);
    const byCode = (code: string) => res.issues.filter((i) => i.code === code).map((i) => rel(i.path)).sort();
    expect(byCode('hidden')).toEqual(['._a.mp4', '.cache', '.hidden.mp4']);
    expect(byCode('system')).toEqual(['$RECYCLE.BIN', 'Thumbs.db']);
    expect(byCode('symlink_loop')).toEqual(['sub dir/loop']);
    expect(byCode('broken_symlink')).toEqual(['dangling.mp4']);
    expect(byCode('not_regular')).toEqual(['pipe.mp4']);
    expect(res.ignored).toBe(1); // notes.txt
    for (const i of res.issues) expect(i.reason.length).toBeGreaterThan(5);
    const a = res.files.find((f) => rel(f.path) === 'a.mp4')!;
    expect(a.size).toBe(1);
    expect(a.mtimeMs).toBe(Math.floor(fs.statSync(path.join(root, 'a.mp4')).mtimeMs));
  });

  it('accepts single files and reports roots that are missing or not videos', async () => {
    const root = tree();
    const res = await scanTree([path.join(root, 'a.mp4'), path.join(root, 'notes.txt'), path.join(root, 'gone')]);
    expect(res.files.map((f) => path.basename(f.path))).toEqual(['a.mp4']);
    expect(res.issues.map((i) => i.code)).toEqual(['not_video']);
    // A root that does not exist is no skipped file: the import names it as an error.
    expect(res.notFound).toEqual([path.join(root, 'gone')]);
  });

  it.skipIf(isRoot)('reports an unreadable folder and goes on', async () => {
    const root = tree();
    const locked = path.join(root, 'locked');
    fs.mkdirSync(locked);
    fs.writeFileSync(path.join(locked, 'x.mp4'), 'x');
    fs.chmodSync(locked, 0);
    cleanups.unshift(() => fs.chmodSync(locked, 0o755));
    const res = await scanTree([root]);
    expect(res.issues.find((i) => i.path === locked)?.code).toBe('unreadable');
    expect(res.files.length).toBe(4);
  });

  it('stops when cancelled', async () => {
    const root = tree();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(scanTree([root], { signal: ctrl.signal })).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
