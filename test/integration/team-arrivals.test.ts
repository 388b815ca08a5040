import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../src-main/web/web-app';
import type { TeamActivity } from '../../src-shared/contract/team';
import { startEmulator, type EmulatorHandle } from '../emulator/server';
import { callOk } from '../helpers/app-call';
import { mediaFile, tempDir } from '../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const KEY = 'team-arrivals-key';
/** The share: a card of two days, and one clip only seat A's machine has. */
const SHARE = { 'Tide/Day1': ['intel_asl_book.mkv', 'mdn_flower.mp4'], 'Tide/Day2': ['mdn_friday.mp4', 'sam2_04_coffee.mp4'], Private: ['intel_asl_sister.mkv'] };
const ON_SHARE = Object.values(SHARE).flat().length;

/**
 * Other seats' clips arrive in a seat's catalog (issue 28, "a replica of the team library"; paths per
 * seat). Seat A has the share under `A/Jobs/` and indexes all of it; seat B mounts it one folder higher
 * (`B/`, like \\nas\footage against /Volumes/NAS/Jobs) and imports only Day 1. B learns from Day 1 where
 * the share's root is on its machine, finds Day 2 there and takes it in, indexed from A's results:
 * nothing decoded past the poster, uploaded or billed by B. The clip only A's machine has is counted
 * as not here, with its share's name.
 */
describeWithPostgres('team library: other seats\' clips arrive on a seat that mounts the share elsewhere', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  const apps: Record<'A' | 'B', WebApp | undefined> = { A: undefined, B: undefined };
  const tmp = tempDir('rs-team-arrivals-');
  const viewA = path.join(tmp.dir, 'A', 'Jobs');
  const viewB = path.join(tmp.dir, 'B');

  const join = async (name: 'A' | 'B') => {
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer, { recursive: true });
    const app = await startWebApp({ dataDir: path.join(tmp.dir, `data-${name}`), rendererDir: renderer, teamLeaseMs: 6000 });
    apps[name] = app;
    const login = await cluster.addSeat();
    await callOk(app.core, 'team.configure', { settings: login.settings(`Bay ${name}`), password: login.password });
    await callOk(app.core, 'settings.update', { baseUrls: { asia: emu.url } });
    await callOk(app.core, 'settings.setApiKey', { key: KEY });
    return app;
  };
  const clipsDone = (app: WebApp) => (app.core.db.prepare("SELECT COUNT(*) AS n FROM clips WHERE status = 'done' AND indexed_at IS NOT NULL").get() as { n: number }).n;
  const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 180_000) => {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(300)) if (await ok()) return;
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    emu = await startEmulator({ keys: [KEY], taskIds: 'upload-request-id' });
    // One copy of each file, reached by the two seats through hard links under their own layouts.
    for (const [folder, clips] of Object.entries(SHARE)) {
      fs.mkdirSync(path.join(viewA, folder), { recursive: true });
      if (folder !== 'Private') fs.mkdirSync(path.join(viewB, folder), { recursive: true });
      for (const c of clips) {
        fs.copyFileSync(mediaFile(c), path.join(viewA, folder, c));
        if (folder !== 'Private') fs.linkSync(path.join(viewA, folder, c), path.join(viewB, folder, c));
      }
    }
  }, 120_000);

  afterAll(async () => {
    for (const a of Object.values(apps)) await a?.close();
    await emu?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('finds the clips B has not imported under the root it learned, indexed from A\'s results, and names what it cannot reach', async () => {
    const a = await join('A');
    await callOk(a.core, 'library.import', { paths: [viewA] });
    await until('seat A indexing the share', () => clipsDone(a) === ON_SHARE);
    const published = emu.stats();
    expect(published.tensorUploads).toBeGreaterThan(0);
    await a.close();
    apps.A = undefined;
    // A's machine is not B's: A's paths do not exist where B looks (only B's own layout does).
    fs.rmSync(path.join(tmp.dir, 'A'), { recursive: true });

    const b = await join('B');
    const activity = () => callOk<TeamActivity>(b.core, 'team.activity');
    // Joined with nothing of the share imported: A's clips are known, and not found here.
    await until('B counting the clips it cannot reach', async () => (await activity()).notHere === ON_SHARE, 30_000);

    await callOk(b.core, 'library.import', { paths: [path.join(viewB, 'Tide', 'Day1')] });
    await until('Day 2 arriving on B, indexed', () => clipsDone(b) === SHARE['Tide/Day1'].length + SHARE['Tide/Day2'].length);

    const files = (b.core.db.prepare('SELECT c.rel_path, v.mount_path FROM clips c JOIN volumes v ON v.id = c.volume_id ORDER BY c.file_name').all() as { rel_path: string; mount_path: string }[]).map((r) =>
      path.join(r.mount_path, r.rel_path),
    );
    expect(files.sort()).toEqual([...SHARE['Tide/Day1'], ...SHARE['Tide/Day2']].map((c) => path.join(viewB, c.startsWith('mdn_friday') || c.startsWith('sam2') ? 'Tide/Day2' : 'Tide/Day1', c)).sort());
    // The Library names the import that brought them: the team's, not the editor's.
    const imports = await callOk<{ imports: { origin: string; added: number }[] }>(b.core, 'library.imports', { limit: 10 });
    expect(imports.imports.filter((i) => i.origin === 'editor').map((i) => i.added)).toEqual([SHARE['Tide/Day1'].length]);
    expect(imports.imports.filter((i) => i.origin === 'team').reduce((n, i) => n + i.added, 0)).toBe(SHARE['Tide/Day2'].length);
    // Nothing sent or billed by B: every result came from A.
    const now = emu.stats();
    expect(now.tensorUploads).toBe(published.tensorUploads);
    expect(now.taskSubmissions).toBe(published.taskSubmissions);
    expect(now.duplicateTensorUploads).toBe(0);
    expect((b.core.db.prepare('SELECT COUNT(*) AS n FROM team_clips WHERE results_from IS NOT NULL').get() as { n: number }).n).toBe(4);
    // Searchable on B, Day 2 included.
    const found = await callOk<{ results: { clipId: number }[] }>(b.core, 'search.text', { text: 'a person', topK: 50, collections: false });
    const day2 = b.core.db.prepare("SELECT id FROM clips WHERE file_name IN ('mdn_friday.mp4', 'sam2_04_coffee.mp4')").pluck().all() as number[];
    expect(found.results.some((r) => day2.includes(r.clipId))).toBe(true);
    // The clip only A's machine has: counted, with the share it is on.
    await until('B counting one clip not here', async () => (await activity()).notHere === 1, 30_000);
    expect((await activity()).notHereShares.length).toBe(1);
  }, 360_000);
});
