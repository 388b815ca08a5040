import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../../src-main/web/web-app';
import type { ClipDetail, ClipSummary } from '../../../../src-shared/contract/library';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { joinWebSeat } from '../../../helpers/team/team-web-apps';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { startReviewServer, type ReviewServer } from '../../../helpers/app/review-server';

const KEY = 'team-url-clips-key';
const FLOWER = mediaFile('mdn_flower.mp4');

/**
 * URL clips arrive on other seats like any clip (issue 40 item 4). Seat A adds a review link by URL;
 * the server records where it comes from (team.clips.source_url, team migration 0013) and A publishes
 * the service's reading of it with its poster and filmstrip. Seat B, which has no file of it (there is
 * none), lists it at its address: poster, shots, the service's tags, search and A's keyword work from
 * the team's results, with nothing sent to the service by B; it plays through B's own reader of
 * addresses, as B's own URL clips do (main's relay, range requests answered with the address's bytes),
 * and where B's rules do not read the address it is listed away, saying where it lives and why.
 * Real PostgreSQL, each seat with its own login; the emulator and a review server over real HTTP.
 */
describeWithPostgres('team library: a clip added by URL on one seat arrives on the others', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  let review: ReviewServer;
  const apps: Record<'A' | 'B', WebApp | undefined> = { A: undefined, B: undefined };
  const tmp = tempDir('rs-team-url-');

  const join = async (name: 'A' | 'B') => {
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer, { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html>');
    // Loopback addresses are read only when allowed: the review server is on this machine.
    const app = await startWebApp({ dataDir: path.join(tmp.dir, `data-${name}`), rendererDir: renderer, teamLeaseMs: 6000, remote: { allowLoopback: true } });
    apps[name] = app;
    await joinWebSeat(app, { cluster, emulatorUrl: emu.url, apiKey: KEY, name });
    return app;
  };
  const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 60_000) => {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(300)) if (await ok()) return;
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    emu = await startEmulator({ keys: [KEY] });
    review = await startReviewServer({ '/reviews/flower.mp4': FLOWER });
  }, 120_000);

  afterAll(async () => {
    for (const a of Object.values(apps)) await a?.close();
    await emu?.close();
    await review?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('A adds a review link; B lists it at its address with A\'s poster, tags and keyword, finds it by search, and plays it from the address', async () => {
    const a = await join('A');
    const b = await join('B');
    const url = `${review.url}/reviews/flower.mp4?sig=abc123`;
    const added = await callOk<{ clipId: number; segments: number; tags: unknown[]; stillsError: string | null }>(a.core, 'library.addUrl', { url, name: 'Flower review' });
    expect(added.stillsError).toBeNull();
    expect(added.segments).toBeGreaterThan(0);
    await callOk(a.core, 'marks.addKeywords', { clipIds: [added.clipId], keywords: ['client pick'] });
    const onA = await callOk<ClipDetail>(a.core, 'library.get', { clipId: added.clipId });

    // The server knows where the clip comes from, made by A; A's results are the team's.
    const admin = await cluster.connect(cluster.adminConfig());
    try {
      await until('A publishing the URL clip', async () => (await admin.query("SELECT 1 FROM team.clip_results r JOIN team.clips c ON c.id = r.clip_id WHERE c.source_url = $1 AND r.profile_id = 'url'", [url])).rowCount === 1);
      const row = (await admin.query('SELECT c.source_url, c.fingerprint, c.file_name, s.name AS made_by FROM team.clips c JOIN team.seats s ON s.seat_id = c.created_by WHERE c.source_url = $1', [url])).rows;
      expect(row).toEqual([{ source_url: url, fingerprint: null, file_name: 'Flower review', made_by: 'Bay A' }]);
    } finally {
      await admin.end();
    }
    const served = review.requests.length;
    const encodes = emu.stats().videoUrlEncodes[url];

    const listed = async () => (await callOk<{ items: ClipSummary[] }>(b.core, 'library.list', { limit: 50 })).items.find((c) => c.sourceUrl === url);
    await until('B listing A\'s URL clip', async () => (await listed()) !== undefined);
    const onB = (await listed())!;
    // Listed as a clip of B's own added by URL: named as A named it, at its address (no share path), ready.
    expect(onB).toMatchObject({ name: 'Flower review', sourceUrl: url, path: url, folder: '', status: 'done', shotCount: onA.shots.length });
    expect(onB.poster).not.toBeNull();
    expect(onB.filmstrip?.frames).toBe(onA.filmstrip?.frames);
    const poster = fs.readFileSync(path.join(b.core.paths.thumbsDir, ...onB.poster!.path.split('/')));
    expect(poster.subarray(0, 2).toString('hex')).toBe('ffd8');
    // The service's tags of A's reading, and its segments, here.
    type Spans = { spans: { startS: number; endS: number; tags: unknown[] }[] };
    const tagsOnA = await callOk<Spans>(a.core, 'search.clipTags', { clipId: added.clipId });
    const tagsOnB = await callOk<Spans>(b.core, 'search.clipTags', { clipId: onB.id });
    expect(tagsOnA.spans.length).toBe(added.segments);
    expect(tagsOnA.spans.some((s) => s.tags.length > 0)).toBe(true);
    expect(tagsOnB.spans.map(({ startS, endS, tags }) => ({ startS, endS, tags }))).toEqual(tagsOnA.spans.map(({ startS, endS, tags }) => ({ startS, endS, tags })));
    const detail = await callOk<ClipDetail>(b.core, 'library.get', { clipId: onB.id });
    expect(detail.shots.map((s) => [s.startS, s.endS])).toEqual(onA.shots.map((s) => [s.startS, s.endS]));
    // Search on B finds it.
    const found = await callOk<{ results: { clipId: number }[] }>(b.core, 'search.text', { text: 'a flower', topK: 20, collections: false });
    expect(found.results.map((r) => r.clipId)).toContain(onB.id);
    // A's keyword reaches B's copy.
    await until('A\'s keyword on B\'s URL clip', async () => (await callOk<{ keywords: string[] }>(b.core, 'marks.forClip', { clipId: onB.id })).keywords.includes('client pick'), 30_000);

    // B read nothing of the address and sent nothing to the service to list it.
    expect(review.requests.length).toBe(served);
    expect(emu.stats().videoUrlEncodes[url]).toBe(encodes);
    expect(b.core.db.prepare('SELECT results_from IS NOT NULL AS copied FROM team_clips WHERE clip_id = ?').get(onB.id)).toEqual({ copied: 1 });

    // It plays as B's own URL clips do: through main, from the address, the player's ranges answered with its bytes.
    const playback = await callOk<{ source: string; offline: boolean; why: string | null }>(b.core, 'playback.get', { clipId: onB.id });
    expect(playback).toMatchObject({ source: 'original', offline: false, why: null });
    const file = fs.readFileSync(FLOWER);
    const part = await fetch(`${b.server.url}/media/clip/${onB.id}`, { headers: { 'x-reelscout-token': b.server.token, range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(100, 1100))).toBe(true);
    expect(review.requests.length).toBeGreaterThan(served);

    // A seat whose rules do not read that address (started without --allow-loopback-urls: A's review
    // server is on A's machine) lists it all the same, away, saying where it lives and why; it reads nothing.
    await b.close();
    const strict = await startWebApp({ dataDir: path.join(tmp.dir, 'data-B'), rendererDir: path.join(tmp.dir, 'renderer'), teamLeaseMs: 6000 });
    apps.B = strict;
    const before = review.requests.length;
    const away = await callOk<{ source: string; offline: boolean; why: string | null }>(strict.core, 'playback.get', { clipId: onB.id });
    expect(away).toMatchObject({ source: 'none', offline: true });
    expect(away.why).toContain(url);
    expect(away.why).toMatch(/does not read: .*this computer/);
    const cards = await callOk<{ sources: { clipId: number; source: string; offline: boolean }[] }>(strict.core, 'playback.sources', { clipIds: [onB.id] });
    expect(cards.sources).toEqual([expect.objectContaining({ clipId: onB.id, source: 'none', offline: true })]);
    expect((await fetch(`${strict.server.url}/media/clip/${onB.id}`, { headers: { 'x-reelscout-token': strict.server.token, range: 'bytes=0-99' } })).ok).toBe(false);
    expect(review.requests.length).toBe(before);
    expect((await callOk<ClipSummary>(strict.core, 'library.get', { clipId: onB.id })).sourceUrl).toBe(url);
  }, 240_000);
});
