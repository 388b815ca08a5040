import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TeamStatus } from '../../../src-shared/contract/team';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import { publishClipResults } from '../../../src-main/core/team/server/clip-results-store';
import { joinSeat } from '../../../src-main/core/team/server/seat-store';
import { lookAtClipJob } from '../../../src-main/core/team/server/team-job-store';
import { adoptTeamClip, recordTeamClipLocation } from '../../../src-main/core/team/server/team-clip-store';
import { DEFAULT_TENSOR_PROFILE } from '../../../src-main/core/tensors/tensor-profile';
import { callOk } from '../../helpers/app/app-call';
import { mediaFile, tempDir } from '../../helpers/paths';
import { describeWithPostgres, startPgCluster, TEAM_DATABASE, type PgCluster } from '../../helpers/team/pg-cluster';
import { launchApp, type E2eApp } from '../harness';
import { readTeamMigrations } from '../../../src-main/core/team/server/migrate-team';

/** The schema version this app's migrations reach. */
const LATEST = readTeamMigrations().at(-1)!.version;

/**
 * Settings' "Team library" in Chromium through the web transport, against a real PostgreSQL: solo by
 * default, a wrong password said as such, Join by the keyboard registers the seat, the status shows
 * the server and the check, Leave goes back to solo. The page never holds the password after Join.
 */
describeWithPostgres('team library in Settings', () => {
  let cluster: PgCluster;
  let e: E2eApp;
  let password: string;
  let role: string;
  const seatName = 'Edit bay 2';

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    // The seat's own login, as the administrator adds it (npm run team:seat -- add).
    ({ password, role } = await cluster.addSeat());
    e = await launchApp({ viewport: { width: 1280, height: 720 } });
  }, 120_000);
  afterAll(async () => {
    await e?.close();
    await cluster?.stop();
  });

  const section = () => e.page.locator('[data-testid="team"]');

  it('is solo by default and says what joining does; every field has a label', async () => {
    const { page } = e;
    await page.click('[data-nav="settings"]');
    await section().scrollIntoViewIfNeeded();
    expect(await page.locator('[data-testid="team-mode"]').innerText()).toMatch(/^Solo: .*registers this workstation as a seat/);
    for (const id of ['team-host', 'team-port', 'team-database', 'team-user', 'team-password', 'team-sslmode', 'team-ca', 'team-seat']) {
      expect(await page.locator(`label[for="${id}"]`).count(), id).toBe(1);
    }
    await e.screenshot('team-solo-1280x720');
  });

  it('Check with a wrong password says auth; the form is reachable field by field with Tab', async () => {
    const { page } = e;
    await page.focus('#team-host');
    await page.keyboard.type('127.0.0.1');
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    }
    expect(order).toEqual(['team-port', 'team-database', 'team-user', 'team-password']);
    await page.fill('#team-port', String(cluster.port));
    await page.fill('#team-database', TEAM_DATABASE);
    await page.fill('#team-user', role);
    await page.fill('#team-password', 'not-the-password');
    await page.selectOption('#team-sslmode', 'disable');
    await page.fill('#team-seat', seatName);
    await page.click('[data-action="team-check"]');
    await expect.poll(() => page.locator('[data-testid="team-result"]').innerText(), { timeout: 20_000 }).toBe(`auth: the team server refused the password of ${role}`);
    expect(await callOk<TeamStatus>(e.app.core, 'team.status')).toEqual({ mode: 'solo' });
    await e.screenshot('team-check-auth-1280x720');
  });

  it('Join (Enter in the form) registers the seat in team.seats and shows the status; the page no longer holds the password', async () => {
    const { page } = e;
    await page.fill('#team-password', password);
    await page.click('[data-action="team-check"]');
    await expect.poll(() => page.locator('[data-testid="team-result"]').innerText(), { timeout: 20_000 }).toBe(`Connected · team schema version ${LATEST}`);
    await page.focus('#team-seat');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid="team-mode"]').innerText(), { timeout: 20_000 }).toContain(`the seat ${seatName} of the team library on ${role}@127.0.0.1:${cluster.port}/${TEAM_DATABASE}`);
    expect(await page.locator('[data-testid="team-last-check"]').innerText()).toMatch(new RegExp(`: Connected · team schema version ${LATEST}$`));
    // The seat runtime started with the join: its link is up (this catalog has no clips yet).
    await expect.poll(() => page.locator('[data-testid="team-activity"]').innerText(), { timeout: 20_000 }).toBe('Online · 0 clips shared with the team, 0 indexed here, 0 by other seats');

    const status = await callOk<TeamStatus>(e.app.core, 'team.status');
    expect(status.mode).toBe('configured');
    const c = await cluster.connect(cluster.adminConfig());
    const seats = (await c.query<{ seat_id: string; name: string }>('SELECT seat_id, name FROM team.seats')).rows;
    await c.end();
    expect(seats).toEqual([{ seat_id: status.mode === 'configured' ? status.seatId : '', name: seatName }]);
    expect(await page.content()).not.toContain(password);

    await section().scrollIntoViewIfNeeded();
    await e.screenshot('team-joined-1280x720');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await section().scrollIntoViewIfNeeded();
    await e.screenshot('team-joined-1920x1080');
  });

  it("a clip another seat indexed, whose file is not on this workstation, is an offline entry with its poster; the viewer says where it lives and Relink takes the editor's copy", async () => {
    const { page } = e;
    const clipFile = mediaFile('mdn_flower.mp4');
    const tmp = tempDir('rs-e2e-team-entry-');
    try {
      // Seat "Bay 1" indexed the clip on its share "nas" and published its results, poster included.
      const poster = path.join(tmp.dir, 'poster.jpg');
      execFileSync('ffmpeg', ['-v', 'error', '-ss', '1', '-i', clipFile, '-frames:v', '1', '-vf', 'scale=320:-2', '-y', poster]);
      const other = '00000000-0000-4000-8000-0000000000b1';
      const c = await cluster.connectSeat(other);
      await joinSeat(c, { seatId: other, name: 'Bay 1', roots: [] });
      const team = await adoptTeamClip(c, { fingerprint: await fingerprintFile(clipFile, fs.statSync(clipFile).size), sizeBytes: fs.statSync(clipFile).size, fileName: 'mdn_flower.mp4', seatId: other });
      await recordTeamClipLocation(c, { clipId: team.id, rootKey: 'nas', relPath: 'Jobs/Tide/Day1/mdn_flower.mp4', seatId: other });
      const shot = { idx: 0, startS: 0, endS: 5, startFrame: 0, endFrame: 120, cutScore: null, transition: null, analysis: null };
      const thumbnails = [{ shotIdx: 0, kind: 'poster' as const, fileName: 'poster.jpg', width: 320, height: 180, frames: null, timeS: 1, image: fs.readFileSync(poster) }];
      // Published by the holder of the clip's job, as the server requires (team migration 0011).
      const look = await lookAtClipJob(c, { seat: other, clipId: team.id, stage: 'analysis', profileId: DEFAULT_TENSOR_PROFILE.id, leaseMs: 30_000 });
      if (look.kind !== 'claimed') throw new Error(`Bay 1 did not claim the clip: ${look.kind}`);
      expect(await publishClipResults(c, other, look.job, { clipId: team.id, profileId: DEFAULT_TENSOR_PROFILE.id, model: 'm', region: 'asia', shots: [shot], segments: [], thumbnails })).toMatchObject({ ok: true });
      await c.end();

      await page.click('[data-nav="library"]');
      const card = page.locator('.clip-card[data-clip-id]');
      await card.first().waitFor({ timeout: 30_000 });
      expect(await card.count()).toBe(1);
      expect(await card.first().innerText()).toMatch(/Offline/);
      expect(await card.first().innerText()).toContain('on the team\'s share "nas" at Jobs/Tide/Day1/mdn_flower.mp4, not on this workstation');
      // an offline entry plays nothing here: no proxy or stream is promised on its card
      expect(await card.first().innerText()).not.toMatch(/Preparing proxy|Preview stream/);
      await expect.poll(() => card.first().locator('img').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await e.screenshot('team-offline-entry-library-1920x1080');

      await card.first().dblclick();
      const unplayable = page.locator('[data-testid="viewer-unplayable"]');
      await unplayable.waitFor({ timeout: 15_000 });
      expect(await unplayable.innerText()).toMatch(/mdn_flower\.mp4 is on the team's share "nas" at Jobs\/Tide\/Day1\/mdn_flower\.mp4, not on this workstation/);
      await e.screenshot('team-offline-entry-viewer-1920x1080');

      // The editor's copy, anywhere: Relink imports it, and the same clip plays from it.
      const copy = path.join(tmp.dir, 'desk', 'flower copy.mp4');
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.copyFileSync(clipFile, copy);
      await page.fill('#viewer-relink-path', path.dirname(copy));
      await page.keyboard.press('Enter');
      const video = page.locator('[data-testid="viewer"] video[data-source="original"]');
      await video.waitFor({ timeout: 30_000 });
      await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      expect(await unplayable.count()).toBe(0);
      await e.screenshot('team-offline-entry-relinked-1920x1080');
      await page.keyboard.press('Escape');
      expect(await card.count()).toBe(1);
      expect(e.pageErrors).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });

  it('after a reload the status is read again; Check again refreshes it; Leave goes back to solo', async () => {
    const { page } = e;
    await page.reload();
    await page.click('[data-nav="settings"]');
    await expect.poll(() => page.locator('[data-testid="team-mode"]').innerText(), { timeout: 20_000 }).toContain(`the seat ${seatName}`);
    const lastCheck = page.locator('[data-testid="team-last-check"]');
    const first = await lastCheck.getAttribute('data-at');
    expect(first).toMatch(/^\d{4}-/);
    await page.click('[data-action="team-check-again"]');
    await expect.poll(() => lastCheck.getAttribute('data-at'), { timeout: 20_000 }).not.toBe(first);
    expect(await lastCheck.innerText()).toMatch(new RegExp(`^Last check .*: Connected · team schema version ${LATEST}$`));
    await page.click('[data-action="team-leave"]');
    await expect.poll(() => page.locator('[data-testid="team-mode"]').innerText()).toMatch(/^Solo: /);
    expect(await callOk<TeamStatus>(e.app.core, 'team.status')).toEqual({ mode: 'solo' });
    await section().scrollIntoViewIfNeeded();
    await e.screenshot('team-left-1920x1080');
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await page.content()).not.toContain(password);
    expect(e.pageErrors).toEqual([]);
  });
});
