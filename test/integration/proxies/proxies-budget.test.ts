import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { enforceProxyBudget, proxyRelPath } from '../../../src-main/core/proxies/proxy-files';
import { proxiesByUse, proxyBytes, recordProxy, touchProxy } from '../../../src-main/core/proxies/proxy-store';
import { tempDir } from '../../helpers/paths';
import { insertClip, insertVolume } from '../../helpers/catalog/search-catalog';

/**
 * The proxies' space budget on a real catalog file and real files: past it the least recently
 * played go first (files and rows), never the one just made, and nothing when within it.
 */
describe('the proxies space budget', () => {
  it('evicts the least recently played first, keeps the one just made, and stops once within the budget', () => {
    const tmp = tempDir('rs-proxy-budget-');
    const db = openCatalog(path.join(tmp.dir, 'catalog.sqlite'));
    try {
      const cache = path.join(tmp.dir, 'cache');
      fs.mkdirSync(path.join(cache, 'proxies'), { recursive: true });
      const vol = insertVolume(db, '/media/CARD');
      const ids = [1, 2, 3, 4].map((i) => insertClip(db, { volumeId: vol, relPath: `A00${i}.mov`, fingerprint: `fp${i}` }));
      ids.forEach((id, i) => {
        const rel = proxyRelPath(id, `fp${i + 1}`);
        fs.writeFileSync(path.join(cache, rel), Buffer.alloc(1000));
        recordProxy(db, { clip_id: id, file: rel, fingerprint: `fp${i + 1}`, bytes: 1000, frames: 25, made_at: 1000 + i });
      });
      // Played since: the first clip's proxy is now the most recent.
      touchProxy(db, ids[0]!, 100_000);
      expect(enforceProxyBudget(db, cache, 4000, null)).toEqual([]);
      // 2,500 bytes allowed: two must go, the least recently played (clips 2 and 3), never clip 4 (just made).
      expect(enforceProxyBudget(db, cache, 2500, ids[3]!)).toEqual([ids[1], ids[2]]);
      expect(proxiesByUse(db).map((r) => r.clip_id)).toEqual([ids[3], ids[0]]);
      expect(proxyBytes(db)).toEqual({ count: 2, bytes: 2000 });
      expect(fs.readdirSync(path.join(cache, 'proxies')).sort()).toEqual([proxyRelPath(ids[0]!, 'fp1'), proxyRelPath(ids[3]!, 'fp4')].map((r) => path.basename(r)).sort());
    } finally {
      db.close();
      tmp.cleanup();
    }
  });
});
