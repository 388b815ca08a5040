import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchModule } from '../../../src-main/core/search/search-module';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import type { ServiceConfig } from '../../../src-main/core/service';
import type { SearchStatus } from '../../../src-shared/contract/search';
import { searchStatusSchema } from '../../../src-shared/contract/search';
import { textSearch } from '../../helpers/catalog/text-search';
import { emulatedCatalog, makeColourClips, searchOver, type EmulatedCatalog } from '../search/search-fixture';

/**
 * The app knows it talks to the project's emulator only because the emulator says so on its
 * answers (x-reelscout-emulator): the same answers without that header, as a real service gives
 * them, leave the search status saying nothing of an emulator.
 */

const KEY = 'identity-key-3810';
let world: EmulatedCatalog | undefined;
let search: Awaited<ReturnType<typeof searchOver>> | undefined;
let mod: SearchModule;
let plain: http.Server;
let plainUrl: string;
let cfg: ServiceConfig;
const statuses: SearchStatus[] = [];

/** Forwards every request to the emulator and answers with its status and body, its own headers minus the emulator's name. */
function startPlainService(target: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const out = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (up) => {
      const headers = { ...up.headers };
      delete headers['x-reelscout-emulator'];
      res.writeHead(up.statusCode ?? 502, headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  resetSharedKeyStates();
  world = await emulatedCatalog({ prefix: 'rs-identity-', key: KEY, emulator: { asyncPendingMs: 5, asyncProcessingMs: 5 }, footage: (d) => makeColourClips(path.join(d, 'footage')) });
  // Building the catalog called the emulator directly: its key's state starts over, as in a new app.
  resetSharedKeyStates();
  plain = await startPlainService(world.emu.url);
  plainUrl = `http://127.0.0.1:${(plain.address() as net.AddressInfo).port}`;
  cfg = { ...world.cfg, baseUrls: { asia: plainUrl } };
  const events = { emit: (_n: string, payload: unknown) => statuses.push(payload as SearchStatus) } as never;
  // The module's settings are read at each call: the test points them at one service, then the other.
  search = await searchOver(world, { serviceConfig: () => cfg, events } as never);
  mod = search.mod;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => plain?.close(r));
  await search?.close();
});

describe('who answers', () => {
  it('a service that does not name itself: online, and no emulator in the status', async () => {
    const r = await textSearch(mod, 'red');
    expect(r.cannotRun).toBeNull();
    const s = searchStatusSchema.parse(mod.service.status());
    expect(s.service.state).toBe('online');
    expect(s.service.emulator).toBe(false);
  });

  it('the emulator, which does: the status says so, and the change is pushed to the UI', async () => {
    cfg = world!.cfg;
    statuses.length = 0;
    const r = await textSearch(mod, 'blue');
    expect(r.cannotRun).toBeNull();
    expect(searchStatusSchema.parse(mod.service.status()).service.emulator).toBe(true);
    expect(statuses.some((s) => s.service.emulator)).toBe(true);
  });

  it('back to the plain service: its own key state, never told of an emulator', async () => {
    cfg = { ...world!.cfg, baseUrls: { asia: plainUrl } };
    await textSearch(mod, 'green');
    expect(mod.service.status().service.emulator).toBe(false);
  });
});
