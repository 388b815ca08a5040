import { ServiceClient, type ServiceConfig } from '../../../src-main/core/service';
import type { EmulatorHandle } from '../../emulator/server';
import { embedClips, type EmbeddedClip, type FixtureClip } from '../../integration/search/search-fixture';
import type { E2eApp } from '../harness';

/**
 * Points a launched app at the emulator with `key` (through its own RPC, as Settings would), then
 * embeds and tags `clips` through the emulator into the app's catalog under the embedding space the
 * app reports: the library a search e2e test starts from.
 */
export async function searchableLibrary(e: E2eApp, emu: EmulatorHandle, key: string, clips: FixtureClip[]): Promise<EmbeddedClip[]> {
  const call = (m: string, a: unknown) => e.app.core.dispatch(m, a, { transport: 'test' });
  for (const [m, a] of [['settings.update', { baseUrls: { asia: emu.url } }], ['settings.setApiKey', { key }]] as const) {
    const r = await call(m, a);
    if (!r.ok) throw new Error(`${m} failed: ${r.error.message}`);
  }
  const status = await call('search.status', {});
  if (!status.ok) throw new Error(`search.status failed: ${status.error.message}`);
  const { model, region } = (status.value as { index: { model: string; region: string } }).index;
  const cfg: ServiceConfig = { region: 'asia', baseUrls: { asia: emu.url }, apiKey: key, authHeader: 'x-api-key', qps: 500, concurrency: 8 };
  return embedClips({ db: e.app.core.db, client: new ServiceClient(cfg), space: { model, region }, clips, thumbsDir: e.app.core.paths.thumbsDir, realVolumes: true });
}
