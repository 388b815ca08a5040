import fs from 'node:fs';
import path from 'node:path';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import type { TeamConnectionSettings } from '../../../src-shared/contract/team';
import { callOk } from '../app/app-call';
import type { PgCluster } from './pg-server';

/**
 * Seats of a team library in this process (web-mode app cores, a data folder each), joined to the
 * cluster and set up for the emulator's address and key, each reaching `footage` through a symlink
 * of its own (`<dir>/mount-<name>`, as /Volumes/NAS and /mnt/nas would be). Joined before the service
 * is set up: a seat set up alone first would have encoded the reference queries itself.
 * (team-seats.ts runs seats as child processes, for tests that must kill one.)
 */
export async function joinedWebApps(o: { dir: string; cluster: PgCluster; emulatorUrl: string; apiKey: string; footage: string; names: readonly string[]; teamLeaseMs: number }): Promise<{ apps: WebApp[]; mounts: string[] }> {
  const renderer = path.join(o.dir, 'renderer');
  fs.mkdirSync(renderer, { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html>');
  const apps: WebApp[] = [];
  const mounts: string[] = [];
  for (const name of o.names) {
    const app = await startWebApp({ dataDir: path.join(o.dir, `data-${name}`), rendererDir: renderer, teamLeaseMs: o.teamLeaseMs });
    apps.push(app);
    await joinWebSeat(app, { ...o, name });
    const mount = path.join(o.dir, `mount-${name}`);
    fs.symlinkSync(o.footage, mount);
    mounts.push(mount);
  }
  return { apps, mounts };
}

/**
 * Joins one web-mode app core to the team as seat "Bay <name>", with its own login as the administrator
 * adds it (npm run team:seat -- add), then sets up the emulator's address and key.
 */
export async function joinWebSeat(app: WebApp, o: { cluster: PgCluster; emulatorUrl: string; apiKey: string; name: string }): Promise<void> {
  const login = await o.cluster.addSeat();
  const settings: TeamConnectionSettings = login.settings(`Bay ${o.name}`);
  await callOk(app.core, 'team.configure', { settings, password: login.password });
  await callOk(app.core, 'settings.update', { baseUrls: { asia: o.emulatorUrl } });
  await callOk(app.core, 'settings.setApiKey', { key: o.apiKey });
}
