import type { Migration } from '../migration';

/**
 * Viewing proxies chosen per volume (issue 37 item 2): a volume's own choice (`needed`, `always`,
 * `never`) or NULL, which follows the preference for all (Settings, Viewing proxies). Only the
 * volume store writes it (library/volume-store.ts `setVolumeProxyPolicy`).
 */
export const m0055VolumeProxies: Migration = {
  version: 55,
  name: 'viewing proxies chosen per volume',
  up(db) {
    db.exec(`ALTER TABLE volumes ADD COLUMN proxy_policy TEXT CHECK (proxy_policy IN ('needed', 'always', 'never'));`);
  },
};
