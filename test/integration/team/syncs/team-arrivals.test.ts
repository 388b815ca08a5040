import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../../src-main/web/web-app';
import type { ClipSummary } from '../../../../src-shared/contract/library';
import type { TeamActivity } from '../../../../src-shared/contract/team';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { joinWebSeat } from '../../../helpers/team/team-web-apps';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

const KEY = 'team-arrivals-key';
/** The share: a card of two days, and one clip only seat A's machine has. */
const SHARE = { 'Tide/Day1': ['intel_asl_book.mkv', 'mdn_flower.mp4'], 'Tide/Day2': ['mdn_friday.mp4', 'sam2_04_coffee.mp4'], Private: ['intel_asl_sister.mkv'] };
const ON_SHARE = Object.values(SHARE).flat().length;

/**
 * Other seats' clips arrive in a seat's catalog (issue 28, "a replica of the team library"; paths per
 * seat). Seat A has the share under `A/Jobs/` and indexes all of it; seat B mounts it one folder higher
 * (`B/`, like \\nas\footage against /Volumes/NAS/Jobs). Joined with nothing imported, B lists every
 * team clip as an offline entry (issue 40 item 4: poster, tags, search, A's keyword; playback and export
 * say where the file lives and offer Relink). B imports only Day 1: the entries take those files, B
 * learns from them where the share's root is on its machine, finds Day 2 there and takes it in, indexed
 * from A's results: nothing decoded past the poster, uploaded or billed by B. The clip only A's machine
 * has stays offline, counted with its share's name, until B imports a copy of it (its Relink).
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
    await joinWebSeat(app, { cluster, emulatorUrl: emu.url, apiKey: KEY, name });
    return app;
  };
  /** Clips indexed whose file is here (not an offline entry, which holds the team's results too). */
  const clipsDone = (app: WebApp) =>
    (app.core.db.prepare("SELECT COUNT(*) AS n FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.status = 'done' AND c.indexed_at IS NOT NULL AND c.probed_at IS NOT NULL AND v.online = 1").get() as { n: number }).n;
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

  it('lists every team clip on B, offline where its file is not here, and takes the file in when found (imported or relinked)', async () => {
    const a = await join('A');
    await callOk(a.core, 'library.import', { paths: [viewA] });
    await until('seat A indexing the share', () => clipsDone(a) === ON_SHARE);
    // A mark on the clip only A's machine has: B's offline entry of it carries it.
    const privateOnA = a.core.db.prepare("SELECT id FROM clips WHERE file_name = 'intel_asl_sister.mkv'").pluck().get() as number;
    await callOk(a.core, 'marks.addKeywords', { clipIds: [privateOnA], keywords: ['sister take'] });
    await until('A sending its keyword', () => (a.core.db.prepare('SELECT COUNT(*) AS n FROM marks_outbox').get() as { n: number }).n === 0, 30_000);
    const published = emu.stats();
    expect(published.tensorUploads).toBeGreaterThan(0);
    await a.close();
    apps.A = undefined;
    // A's machine is not B's: A's paths do not exist where B looks (only B's own layout does).
    fs.rmSync(path.join(tmp.dir, 'A'), { recursive: true });

    const b = await join('B');
    const activity = () => callOk<TeamActivity>(b.core, 'team.activity');
    const offline = () => callOk<{ total: number; items: ClipSummary[] }>(b.core, 'library.list', { status: 'offline', limit: 50 });
    // Joined with nothing of the share imported: every clip of the team is listed, offline, with A's results.
    await until('B listing the team\'s clips as offline entries', async () => (await offline()).total === ON_SHARE, 60_000);
    expect((await activity()).notHere).toBe(ON_SHARE);
    const entries = (await offline()).items;
    // Each named by the share A saw it on (the drive's label or mount folder), the volume an offline drive's clips hang off.
    const [share] = (await activity()).notHereShares;
    expect(entries.every((c) => c.poster !== null && c.shotCount > 0 && c.volumeLabel === share && c.status === 'offline')).toBe(true);
    const where = new RegExp(`team's share \\\\?"${share!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\\\?" at [^ ]*Private/intel_asl_sister\\.mkv`);
    const privateEntry = entries.find((c) => c.name === 'intel_asl_sister.mkv')!;
    expect(privateEntry.path).toContain(path.join('Private', 'intel_asl_sister.mkv'));
    // Tags and search: A's segments, searchable here; marks: A's keyword.
    const found = await callOk<{ results: { clipId: number }[] }>(b.core, 'search.text', { text: 'a person', topK: 50, collections: false });
    expect(new Set(found.results.map((r) => r.clipId)).size).toBeGreaterThan(1);
    expect(found.results.every((r) => entries.some((e) => e.id === r.clipId))).toBe(true);
    await until('A\'s keyword on B\'s offline entry', async () => (await callOk<{ keywords: string[] }>(b.core, 'marks.forClip', { clipId: privateEntry.id })).keywords.includes('sister take'), 30_000);
    // Playback and export say where the file lives and what to do.
    const playback = await callOk<{ source: string; offline: boolean; why: string | null }>(b.core, 'playback.get', { clipId: privateEntry.id });
    expect(playback.source).toBe('none');
    expect(playback.why).toMatch(where);
    expect(playback.why).toMatch(/Relink/);
    const plan = await b.core.dispatch('export.plan', { format: 'csv', selection: { clipIds: [privateEntry.id] } }, { transport: 'test' });
    expect(JSON.stringify(plan)).toMatch(where);

    await callOk(b.core, 'library.import', { paths: [path.join(viewB, 'Tide', 'Day1')] });
    await until('Day 2 arriving on B, indexed', () => clipsDone(b) === SHARE['Tide/Day1'].length + SHARE['Tide/Day2'].length);

    const files = (b.core.db.prepare("SELECT c.rel_path, v.mount_path FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE v.online = 1 ORDER BY c.file_name").all() as { rel_path: string; mount_path: string }[]).map((r) =>
      path.join(r.mount_path, r.rel_path),
    );
    expect(files.sort()).toEqual([...SHARE['Tide/Day1'], ...SHARE['Tide/Day2']].map((c) => path.join(viewB, c.startsWith('mdn_friday') || c.startsWith('sam2') ? 'Tide/Day2' : 'Tide/Day1', c)).sort());
    // The offline entries took the files (the same clips, not new ones): the editor's import and the team's relocated them.
    expect((b.core.db.prepare('SELECT COUNT(*) AS n FROM clips').get() as { n: number }).n).toBe(ON_SHARE);
    expect(entries.filter((e) => e.name !== 'intel_asl_sister.mkv').every((e) => files.some((f) => f.endsWith(e.name)))).toBe(true);
    const imports = await callOk<{ imports: { origin: string; added: number; relocated: number }[] }>(b.core, 'library.imports', { limit: 10 });
    expect(imports.imports.filter((i) => i.origin === 'editor').map((i) => [i.added, i.relocated])).toEqual([[0, SHARE['Tide/Day1'].length]]);
    expect(imports.imports.filter((i) => i.origin === 'team').reduce((n, i) => n + i.relocated, 0)).toBe(SHARE['Tide/Day2'].length);
    // Nothing sent or billed by B: every result came from A.
    const now = emu.stats();
    expect(now.tensorUploads).toBe(published.tensorUploads);
    expect(now.taskSubmissions).toBe(published.taskSubmissions);
    expect(now.duplicateTensorUploads).toBe(0);
    expect((b.core.db.prepare('SELECT COUNT(*) AS n FROM team_clips WHERE results_from IS NOT NULL').get() as { n: number }).n).toBe(ON_SHARE);
    // The clip only A's machine has: still offline, counted with the share it is on.
    await until('B counting one clip not here', async () => (await activity()).notHere === 1, 30_000);
    expect((await activity()).notHereShares).toEqual([share]);
    expect((await offline()).items.map((c) => c.id)).toEqual([privateEntry.id]);

    // Relink: the editor imports their own copy of it, anywhere: the offline entry is that file now, its keyword kept.
    const copy = path.join(tmp.dir, 'B-desk', 'sister copy.mkv');
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(mediaFile('intel_asl_sister.mkv'), copy);
    await callOk(b.core, 'library.import', { paths: [path.dirname(copy)] });
    await until('the relinked clip probed and indexed here', () => clipsDone(b) === ON_SHARE);
    expect((b.core.db.prepare('SELECT COUNT(*) AS n FROM clips').get() as { n: number }).n).toBe(ON_SHARE);
    expect((await callOk<ClipSummary>(b.core, 'library.get', { clipId: privateEntry.id })).path).toBe(copy);
    expect((await callOk<{ keywords: string[] }>(b.core, 'marks.forClip', { clipId: privateEntry.id })).keywords).toContain('sister take');
    expect((await callOk<{ source: string }>(b.core, 'playback.get', { clipId: privateEntry.id })).source).not.toBe('none');
    expect(emu.stats().tensorUploads).toBe(published.tensorUploads);
  }, 360_000);
});
