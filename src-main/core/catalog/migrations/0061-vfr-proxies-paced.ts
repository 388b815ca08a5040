import type { Migration } from '../migration';

/**
 * Proxies of variable-rate clips are made again: encoded on the clip's own clock (1/90000 for a
 * phone), x264 took that clock's ticks for its frame rate and gave each picture almost no bits, so
 * a VFR proxy's first pictures were flat grey (the phone test clip's first two). The encoder is now
 * told the rate the clip was shot at (media/proxy-encoder.ts `proxyEncoderArgs`); the background proxies make
 * the forgotten ones again, under the same name. Frame counts and times were right, so nothing else
 * changes.
 */
export const m0061VfrProxiesPaced: Migration = {
  version: 61,
  name: 'variable-rate proxies made again with their pictures paced by their rate',
  up(db) {
    db.exec('DELETE FROM proxies WHERE clip_id IN (SELECT id FROM clips WHERE vfr = 1)');
  },
};
