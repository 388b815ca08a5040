import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { getClipRow } from '../../../src-main/core/library/clip-store';
import { URL_VOLUME_KEY } from '../../../src-main/core/library/volume-store';
import { clipsMissingProxies } from '../../../src-main/core/proxies/proxy-backfill';
import { createPlaybackHandlers } from '../../../src-main/core/proxies/proxy-handlers';
import type { ProxyPolicy } from '../../../src-main/core/proxies/proxy-policy';
import { tempDir } from '../../helpers/paths';
import { insertClip, insertVolume, openTestCatalog } from '../../helpers/catalog/search-catalog';

const ctx = { transport: 'test' as const };

/**
 * Viewing proxies chosen per drive (issue 37 item 2), on a real SQLite catalog: a drive's own choice
 * wins over the one for all, for the background backfill, for what the viewer is told is coming, and
 * for the clip rows the pipeline plans its decodes from; a drive back to "as above" follows Settings again.
 */
describe('viewing proxies per drive', () => {
  const tmp = tempDir('rs-proxy-volumes-');
  afterAll(() => tmp.cleanup());
  const db = openTestCatalog(tmp.dir);
  // An internal disk (never detachable on Linux: '/'), a card reader (detachable), and a clip added by URL.
  const internal = insertVolume(db, '/');
  const card = insertVolume(db, '/media/card');
  const url = insertVolume(db, '/', URL_VOLUME_KEY);
  const h264 = { container: 'mp4', videoCodec: 'h264', pixFmt: 'yuv420p', audioCodec: 'aac' };
  const prores = { container: 'mov', videoCodec: 'prores', pixFmt: 'yuv422p10le', audioCodec: 'pcm_s24le' };
  const clip = (volumeId: number, name: string, media: typeof h264) => {
    const id = insertClip(db, { volumeId, relPath: name, media, fingerprint: name.padEnd(32, '0') });
    db.prepare("UPDATE clips SET status = 'done', shots_at = 1 WHERE id = ?").run(id);
    return id;
  };
  const a = clip(internal, 'A001.mp4', h264);
  const b = clip(internal, 'B001.mov', prores);
  const c = clip(card, 'C001.mp4', h264);
  let forAll: ProxyPolicy = 'needed';
  let changed = 0;
  const cacheDir = path.join(tmp.dir, 'cache');
  fs.mkdirSync(cacheDir);
  // No clip here plays from a preview stream: streams are not asked for.
  const streams = { open: async () => new AppError('invalid', 'no stream'), toward: async () => undefined, stop: async () => undefined, dispose: async () => undefined };
  const handlers = createPlaybackHandlers({ db, cacheDir, clipFile: async () => undefined as never, proxyPolicy: () => forAll, volumeProxiesChanged: () => changed++, platform: 'linux', streams, addressRefusal: () => null });
  const missing = () => clipsMissingProxies(db, forAll, 'linux').sort((x, y) => x - y);

  it('follows the choice for all until a drive has its own', async () => {
    // 'needed': the ProRes clip (the player cannot show it) and the card's clip (it may leave).
    expect(missing()).toEqual([b, c]);
    const space = await handlers['playback.proxySpace']({}, ctx);
    expect(space.volumes.map((v) => [v.id, v.proxyPolicy])).toEqual(
      expect.arrayContaining([
        [internal, null],
        [card, null],
      ]),
    );
    // Clips added by URL are watched from their address: their volume is not offered.
    expect(space.volumes.some((v) => v.id === url)).toBe(false);
  });

  it("a drive's own choice wins: never for the card, always for the internal disk", async () => {
    const after = await handlers['playback.volumeProxies']({ volumeId: card, policy: 'never' }, ctx);
    expect(after.volumes.find((v) => v.id === card)?.proxyPolicy).toBe('never');
    await handlers['playback.volumeProxies']({ volumeId: internal, policy: 'always' }, ctx);
    expect(changed).toBe(2);
    expect(missing()).toEqual([a, b]);
    expect(getClipRow(db, c).volume_proxy_policy).toBe('never');
    expect(getClipRow(db, a).volume_proxy_policy).toBe('always');
    // The choice for all no longer decides for those two drives.
    forAll = 'never';
    expect(missing()).toEqual([a, b]);
  });

  it('back to "as above" follows Settings again; unknown drives and the URL volume are refused', async () => {
    await handlers['playback.volumeProxies']({ volumeId: internal, policy: null }, ctx);
    expect(missing()).toEqual([]);
    forAll = 'always';
    expect(missing()).toEqual([a, b]);
    await expect((async () => handlers['playback.volumeProxies']({ volumeId: 9999, policy: 'always' }, ctx))()).rejects.toMatchObject({ kind: 'not_found' });
    await expect((async () => handlers['playback.volumeProxies']({ volumeId: url, policy: 'always' }, ctx))()).rejects.toMatchObject({ kind: 'not_found' });
    expect((db.prepare('SELECT proxy_policy FROM volumes WHERE id = ?').get(url) as { proxy_policy: string | null }).proxy_policy).toBeNull();
  });
});
