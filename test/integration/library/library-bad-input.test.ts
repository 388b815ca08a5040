import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipSummary, ImportSummary } from '../../../src-shared/contract/library';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import { importPaths } from '../../../src-main/core/library/import/import-library';
import { createLibraryService, type LibraryService } from '../../../src-main/core/library/library-handlers';
import { DeviceWalkVolumeResolver } from '../../../src-main/core/library/volumes/generic-volumes';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import { mediaFile, tempDir } from '../../helpers/paths';
import { mediaPipeline } from '../fixtures/pipeline-harness';

const UNICODE_DIR = 'ünïcødé & spaces';
const UNICODE_NAME = 'クリップ #1 (take 2).mov';

/** The corpus: file -> what the catalog must say about it. */
const EXPECTED: Record<string, { status: ClipSummary['status']; reason?: RegExp; check?: (c: ClipSummary) => void }> = {
  'empty.mp4': { status: 'error', reason: /empty file \(0 bytes\)/ },
  'notes.mp4': { status: 'error', reason: /not a recognisable media file/ },
  'truncated.mp4': { status: 'error', reason: /truncated/ },
  'truncated-faststart.mp4': { status: 'done', reason: /file ends early: plays 0\.\d s of 2\.0 s/, check: (c) => expect(c.decodedS).toBeGreaterThan(0) },
  // The index probes fine, but not one frame's data is in the file.
  'header-only.mp4': { status: 'error', reason: /no poster could be made: the data there is not a whole video/, check: (c) => expect(c.durationS).toBe(2) },
  'audio-only.mp4': {
    status: 'unsupported',
    reason: /audio only \(aac\)/,
    check: (c) => expect(c).toMatchObject({ audioCodec: 'aac', audioChannels: 1, videoCodec: null, poster: null }),
  },
  'huge 8192x8192.mp4': {
    status: 'done',
    reason: /very large frame 8192x8192/,
    check: (c) => {
      expect([c.width, c.height]).toEqual([8192, 8192]);
      expect([c.poster!.width, c.poster!.height]).toEqual([320, 320]);
    },
  },
  'rotated phone.mp4': {
    status: 'done',
    reason: /rotated (90|270)°/,
    check: (c) => {
      expect([c.width, c.height]).toEqual([240, 320]);
      expect(c.poster!.height!).toBeGreaterThan(c.poster!.width!); // portrait, as the phone showed it
      expect(c.filmstrip!.height!).toBeGreaterThan(c.filmstrip!.width!);
    },
  },
  [`${UNICODE_DIR}/${UNICODE_NAME}`]: {
    status: 'done',
    check: (c) => {
      expect(c.name).toBe(UNICODE_NAME);
      expect(c.statusReason).toBeNull();
      expect(c.shotCount).toBe(1);
    },
  },
};

/** Offset just past the first top-level ISO box of this type (faststart files have moov before mdat). */
function endOfBox(buf: Buffer, type: string): number {
  let off = 0;
  while (off + 8 <= buf.length) {
    const size = buf.readUInt32BE(off);
    if (buf.toString('latin1', off + 4, off + 8) === type) return off + size;
    if (size < 8) break;
    off += size;
  }
  throw new Error(`no ${type} box`);
}

describe('bad input corpus', () => {
  let dir: string;
  let cleanup: () => void;
  let root: string;
  let db: CatalogDb;
  let lib: LibraryService;
  let summary: ImportSummary;
  let clips: ClipSummary[];

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir('reelscout-bad-'));
    root = path.join(fs.realpathSync(dir), 'drop');
    fs.mkdirSync(path.join(root, UNICODE_DIR), { recursive: true });
    const at = (name: string) => path.join(root, name);
    const ff = (...args: string[]) => execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
    const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

    fs.writeFileSync(at('empty.mp4'), '');
    fs.writeFileSync(at('notes.mp4'), 'INT. CAR - DAY\nThis is a shot list, renamed by mistake.\n'.repeat(50));
    const full = path.join(dir, 'full.mp4');
    ff('-f', 'lavfi', '-i', 'testsrc=s=320x240:r=25:d=2', '-f', 'lavfi', '-i', 'sine=d=2', ...x264, '-c:a', 'aac', full);
    const bytes = fs.readFileSync(full);
    fs.writeFileSync(at('truncated.mp4'), bytes.subarray(0, Math.floor(bytes.length * 0.6))); // index (moov) is at the end: lost
    const faststart = path.join(dir, 'faststart.mp4');
    ff('-i', full, '-c', 'copy', '-movflags', '+faststart', faststart);
    const fsBytes = fs.readFileSync(faststart);
    fs.writeFileSync(at('truncated-faststart.mp4'), fsBytes.subarray(0, Math.floor(fsBytes.length / 2))); // index first, media cut
    fs.writeFileSync(at('header-only.mp4'), fsBytes.subarray(0, endOfBox(fsBytes, 'moov') + 16));
    ff('-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac', at('audio-only.mp4'));
    ff('-f', 'lavfi', '-i', 'testsrc=s=8192x8192:r=25:d=0.04', ...x264, at('huge 8192x8192.mp4'));
    ff('-f', 'lavfi', '-i', 'testsrc=s=320x240:r=30:d=1', ...x264, path.join(dir, 'upright.mp4'));
    ff('-i', path.join(dir, 'upright.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', at('rotated phone.mp4'));
    fs.copyFileSync(mediaFile('intel_asl_thanks.mkv'), at(path.join(UNICODE_DIR, 'tmp.mkv')));
    ff('-i', at(path.join(UNICODE_DIR, 'tmp.mkv')), '-c', 'copy', at(path.join(UNICODE_DIR, UNICODE_NAME)));
    fs.rmSync(at(path.join(UNICODE_DIR, 'tmp.mkv')));
    // Skipped and reported, never catalogued:
    fs.writeFileSync(at('.hidden.mp4'), 'x');
    fs.symlinkSync(path.join(root, 'nowhere.mp4'), at('dangling.mp4'));
    fs.symlinkSync(root, at(path.join(UNICODE_DIR, 'back to drop')));
    fs.writeFileSync(at('locked.mp4'), 'x'.repeat(100));
    fs.writeFileSync(at('readme.txt'), 'not a video');

    db = openCatalog(path.join(dir, 'catalog.sqlite'));
    lib = createLibraryService({
      db,
      events: new EventBus(),
      cacheDir: path.join(dir, 'cache'),
      resolver: new DeviceWalkVolumeResolver(),
      indexClips: () => {},
      pollOnStart: false,
      volumePollMs: 0,
    });
    // Running as root makes chmod 000 readable: simulate the permission error at the one place it is read.
    const res = await importPaths(db, [root], {
      resolver: new DeviceWalkVolumeResolver(),
      fingerprint: (f, size) => {
        if (path.basename(f) === 'locked.mp4') return Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
        return fingerprintFile(f, size);
      },
    });
    summary = res.summary;
    // The media stages run as the app runs them: through the pipeline.
    const media = mediaPipeline(db, dir);
    media.indexClips(res.needMedia);
    await media.settled(res.needMedia);
    await media.stop();
    clips = (await lib.handlers['library.list']({ offset: 0, limit: 100, sort: 'path' }, { transport: 'test' })).items;
  }, 120_000);

  afterAll(() => {
    lib?.dispose();
    db?.close();
    cleanup?.();
  });

  it('catalogues every video-named file exactly once: no crash, no lost row', () => {
    expect(summary.state).toBe('done');
    expect(clips.map((c) => path.relative(root, c.path)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [rel, want] of Object.entries(EXPECTED)) {
    it(`${rel} -> ${want.status}`, () => {
      const c = clips.find((x) => path.relative(root, x.path) === rel)!;
      expect(c.status).toBe(want.status);
      if (want.reason) expect(c.statusReason ?? '').toMatch(want.reason);
      if (want.status === 'error' || want.status === 'unsupported') expect(c.errorKind).toBeTruthy();
      if (want.status === 'done') {
        expect(c.poster).not.toBeNull();
        expect(c.filmstrip).not.toBeNull();
        const thumbs = path.join(dir, 'cache', 'thumbs');
        expect(fs.existsSync(path.join(thumbs, ...c.poster!.path.split('/')))).toBe(true);
      }
      want.check?.(c);
    });
  }

  it('files a clip that decodes in part under Problems, and keeps it searchable for what was read', async () => {
    const problems = (await lib.handlers['library.list']({ offset: 0, limit: 100, sort: 'path', status: 'problems' }, { transport: 'test' })).items.map((c) => c.name);
    expect(problems).toContain('truncated-faststart.mp4');
    // Read as far as it goes (shots and posters of that part), so the rest of indexing makes it searchable.
    const partial = clips.find((c) => c.name === 'truncated-faststart.mp4')!;
    expect(partial).toMatchObject({ status: 'done' });
    expect(partial.shotCount).toBeGreaterThan(0);
  });

  it('reports what it skipped, with reasons, and what failed', () => {
    const byName = new Map(summary.issues.map((i) => [path.basename(i.path), i]));
    expect(byName.get('.hidden.mp4')?.code).toBe('hidden');
    expect(byName.get('dangling.mp4')?.code).toBe('broken_symlink');
    expect(byName.get('back to drop')?.code).toBe('symlink_loop');
    expect(byName.get('locked.mp4')).toMatchObject({ code: 'unreadable', reason: 'permission denied' });
    expect(summary.skipped).toBe(4);
    expect(summary.ignored).toBe(1);
    // As it returns, the import knows only the empty file; the rest are read by the pipeline's probe.
    expect(summary.failed).toBe(1);
    expect(byName.get('empty.mp4')?.reason).toBe('empty file (0 bytes)');
    expect(byName.has('notes.mp4')).toBe(false);
  });

  it('its summary, read again once the pipeline has probed, counts and lists every file that could not be used', async () => {
    const later = (await lib.handlers['library.imports']({ limit: 1 }, { transport: 'test' })).imports[0]!;
    expect(later.importId).toBe(summary.importId);
    // Four that ffprobe refuses or finds empty, and one whose index reads fine but whose every
    // frame is missing (found by the poster, after the probe): the import's count could not know it.
    expect(later.failed).toBe(5);
    const byName = new Map(later.issues.map((i) => [path.basename(i.path), i]));
    expect(byName.get('notes.mp4')).toMatchObject({ code: 'error', reason: expect.stringMatching(/not a recognisable media file/) });
    expect(byName.get('truncated.mp4')?.reason).toMatch(/truncated/);
    expect(byName.get('audio-only.mp4')?.reason).toMatch(/audio only/);
    expect(byName.get('header-only.mp4')?.reason).toMatch(/not a whole video Reelscout can read/);
    expect(byName.get('empty.mp4')?.reason).toBe('empty file (0 bytes)');
    expect(later.issues.filter((i) => path.basename(i.path) === 'empty.mp4')).toHaveLength(1);
    // The skipped entries are still there, once each.
    expect(byName.get('locked.mp4')?.code).toBe('unreadable');
  });
});
