import Conf from 'conf';
import type { JsonStore } from '../util/persisted-stores';

/** Plain-Node preferences file (web mode, tests); electron-store is conf plus Electron's paths. */
export function createConfJsonStore(dir: string, name = 'preferences'): JsonStore {
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'reelscout' });
  return {
    get store() {
      return conf.store;
    },
    set store(v) {
      conf.store = v;
    },
    path: conf.path,
  };
}
