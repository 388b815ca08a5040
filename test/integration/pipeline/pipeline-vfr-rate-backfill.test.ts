import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { getClipDetail } from '../../../src-main/core/library/library-page-store';
import { createLibraryService } from '../../../src-main/core/library/library-handlers';
import { clipMarks } from '../../../src-main/core/marks/marks-repository';
import { insertRange } from '../../../src-main/core/marks/range-store';
import { parseRate } from '../../../src-main/core/media/probe-parse';
import { probeFile } from '../../../src-main/core/media/probe';
import { IndexingPipeline } from '../../../src-main/core/pipeline/indexing-pipeline';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import { rangeOnGrid } from '../../../src-renderer/src/components/viewer/marks';
import { countingOf } from '../../../src-shared/timecode';
import { MarkerVolumes } from '../../helpers/catalog/marker-volumes';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';
import { tempDir } from '../../helpers/paths';
import { TEST_PROFILE, testPipelineOptions, testServiceAccess, waitUntil } from '../fixtures/pipeline-harness';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The mtime (ms) the catalog holds for the clips whose files are away, and their files get when they come back. */
const AWAY_MTIME_MS = 1_700_000_000_000;

/**
 * Issue 37: a catalog an app before 0063 left, its VFR phone clip (30 fps on a 1/90000 clock)
 * counted at its average, 24.19, its picture times never read. Migration 0064 marks it, and the
 * pipeline's background rate job reads its first pictures with the real ffprobe: it counts at 30
 * now, the Library is told, and a range saved at 24 keeps its rate and shows the same moments on
 * the 30 grid. A constant-rate clip is never read; a VFR clip whose file is away keeps its rate
 * and its mark, its job waiting, until the Library hands it over with its file back; a file
 * ffprobe cannot read keeps its rate and loses its mark.
 */
describe('VFR clips of an older catalog read at their shot rate in the background (catalog 0064)', () => {
  it('moves the phone clip from 24.19 to 30, leaves the CFR and unreadable clips their rate, and waits for the ones away', async () => {
    const [phone, cfr] = await makePlaybackFootage(undefined, ['h264-vfr-phone', 'h264-25']);
    const tmp = tempDir('rs-rate-backfill-');
    cleanups.push(tmp.cleanup);
    const card = path.join(tmp.dir, 'card');
    const drive = path.join(tmp.dir, 'drive');
    fs.mkdirSync(card);
    fs.writeFileSync(path.join(card, '.volume-id'), 'card');
    // The drive is unplugged: its folder is elsewhere.
    const unplugged = path.join(tmp.dir, 'drive-unplugged');
    fs.mkdirSync(unplugged);
    fs.writeFileSync(path.join(unplugged, '.volume-id'), 'drive');
    fs.copyFileSync(phone!.file, path.join(unplugged, 'phone-on-drive.mp4'));
    fs.utimesSync(path.join(unplugged, 'phone-on-drive.mp4'), AWAY_MTIME_MS / 1000, AWAY_MTIME_MS / 1000);
    fs.copyFileSync(phone!.file, path.join(card, 'phone.mp4'));
    fs.copyFileSync(cfr!.file, path.join(card, 'cfr.mp4'));
    fs.writeFileSync(path.join(card, 'torn.mp4'), 'not a video, whatever its name says');
    const stat = (name: string) => fs.statSync(path.join(card, name));
    const before = await probeFile(phone!.file);
    const average = parseRate((before.raw as { streams: { codec_type: string; avg_frame_rate: string }[] }).streams.find((s) => s.codec_type === 'video')!.avg_frame_rate)!;
    expect(average).toBeCloseTo(24.19, 2);

    const { file, old } = catalogAtVersion(63, cleanups);
    const volume = old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (?, ?, ?, ?, 1)`);
    volume.run(1, 'card', card, 1);
    volume.run(2, 'drive', drive, 0);
    const clip = old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, fingerprint, probed_at, indexed_at, indexed_profile, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, 1, 1, ?, 1, 1)`,
    );
    // Indexed before (with the pipeline's profile): the start queues no indexing for them, only the background's work.
    const indexed = (id: number, name: string, size: number, mtimeMs: number, fps: number, vfr: number, volumeId = 1) =>
      clip.run(id, volumeId, name, name, size, mtimeMs, fps, vfr, `fp-${name}`, TEST_PROFILE.id);
    const mtime = (name: string) => Math.floor(stat(name).mtimeMs);
    indexed(1, 'phone.mp4', stat('phone.mp4').size, mtime('phone.mp4'), average, 1);
    indexed(2, 'cfr.mp4', stat('cfr.mp4').size, mtime('cfr.mp4'), 25, 0);
    indexed(3, 'away.mp4', stat('phone.mp4').size, AWAY_MTIME_MS, average, 1);
    indexed(4, 'torn.mp4', stat('torn.mp4').size, mtime('torn.mp4'), 23.5, 1);
    indexed(5, 'phone-on-drive.mp4', stat('phone.mp4').size, AWAY_MTIME_MS, average, 1, 2);
    old.close();

    const db = openCatalog(file);
    const row = (id: number) => db.prepare('SELECT fps, rate_unread, missing_at FROM clips WHERE id = ?').get(id) as { fps: number; rate_unread: number; missing_at: number | null };
    expect([1, 2, 3, 4, 5].map((id) => row(id).rate_unread)).toEqual([1, 0, 1, 1, 1]);
    // A range the editor saved while the clip counted at 24: frames 24-48, 1 s to 2 s.
    const old24 = countingOf(average, true).rate;
    expect(old24).toEqual({ num: 24, den: 1 });
    insertRange(db, { clipId: 1, inFrame: 24, outFrame: 48, rate: old24, name: 'saved at 24', note: '', rating: null, keywords: [] }, 1);

    const events = new EventBus();
    const changed: number[] = [];
    events.subscribe((e, p) => e === 'catalog.changed' && changed.push(...((p as { clipIds?: number[] }).clipIds ?? [])));
    const pipeline = new IndexingPipeline(testPipelineOptions(db, tmp.dir, testServiceAccess('http://127.0.0.1:9'), { events, autoIndex: true }));
    cleanups.unshift(async () => {
      await pipeline.stop();
      db.close();
    });
    const job = (id: number) => pipeline.queue.find(id, 'rate');
    const library = createLibraryService({ db, events, cacheDir: path.join(tmp.dir, 'cache'), resolver: new MarkerVolumes([card, drive]), indexClips: (ids) => pipeline.enqueueClips(ids), pollOnStart: false, volumePollMs: 0 });
    cleanups.unshift(() => library.dispose());
    pipeline.start();
    expect([1, 2, 3, 4, 5].map((id) => job(id) !== undefined)).toEqual([true, false, true, true, true]);
    expect(pipeline.queue.list({}).every((j) => j.stage === 'rate')).toBe(true);
    await waitUntil(
      () => job(1)?.state === 'done' && job(4)?.state === 'done' && job(3)?.lastErrorKind === 'unplugged' && job(5)?.lastErrorKind === 'unplugged',
      60_000,
      'the phone and torn clips read, the ones away met',
    );

    expect(row(1)).toMatchObject({ fps: 30, rate_unread: 0 });
    expect(getClipDetail(db, 1)).toMatchObject({ fps: 30, rate: { num: 30, den: 1 }, conformed: true });
    expect(changed).toContain(1);
    // The saved range keeps its rate; on the clip's 30 grid it is the same moments, 1 s to 2 s.
    const [range] = clipMarks(db, 1).ranges;
    expect(range).toMatchObject({ inFrame: 24, outFrame: 48, rate: old24 });
    expect(rangeOnGrid(range!, { num: 30, den: 1 })).toEqual({ inFrame: 30, outFrame: 60 });
    expect(row(2)).toMatchObject({ fps: 25, rate_unread: 0 });
    expect(row(4)).toMatchObject({ fps: 23.5, rate_unread: 0 });
    expect(changed).not.toContain(4);
    // Away (a file gone from its folder, a drive unplugged): rate and mark kept, jobs queued (not failed) for when they are back.
    expect(row(3)).toMatchObject({ fps: average, rate_unread: 1 });
    expect(row(3).missing_at).not.toBeNull();
    expect(row(5)).toMatchObject({ fps: average, rate_unread: 1 });
    expect([job(3), job(5)]).toMatchObject([{ state: 'queued', attempts: 0 }, { state: 'queued', attempts: 0 }]);
    // Paused and resumed in Jobs as one, as the other background work.
    expect(pipeline.pause({ background: 'rate' })).toBe(2);
    expect(pipeline.summary().background).toEqual([{ stage: 'rate', queued: 0, running: 0, paused: 2, failed: 0 }]);
    expect(pipeline.resume({ background: 'rate' })).toBe(2);
    const waiting = (id: number) => job(id)?.state === 'queued' && job(id)?.lastErrorKind === 'unplugged' && job(id)?.notBefore !== null;
    await waitUntil(() => waiting(3) && waiting(5), 30_000, 'the resumed jobs waiting for their files again');

    // The Library's drive check (pollVolumes) finds the file and the drive back and hands their clips
    // over, indexed as they are: the waiting jobs run now, not at their next look a minute later.
    const back = path.join(card, 'away.mp4');
    fs.copyFileSync(phone!.file, back);
    fs.utimesSync(back, AWAY_MTIME_MS / 1000, AWAY_MTIME_MS / 1000);
    fs.renameSync(unplugged, drive);
    library.pollVolumes();
    await waitUntil(() => job(3)?.state === 'done' && job(5)?.state === 'done', 30_000, 'the clips back read');
    expect(row(3)).toMatchObject({ fps: 30, rate_unread: 0, missing_at: null });
    expect(row(5)).toMatchObject({ fps: 30, rate_unread: 0 });
    expect(changed).toEqual(expect.arrayContaining([3, 5]));
    // Nothing is marked any more: a later start queues nothing.
    expect(pipeline.enqueueRates()).toBe(0);
  }, 120_000);
});
