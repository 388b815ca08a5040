import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TeamStatus } from '../../src-shared/contract/team';
import { callOk } from '../helpers/app-call';
import { describeWithPostgres, startPgCluster, TEAM_DATABASE, type PgCluster } from '../helpers/pg-cluster';
import { launchApp, type E2eApp } from './harness';
import { readTeamMigrations } from '../../src-main/core/team/server/migrate-team';

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
