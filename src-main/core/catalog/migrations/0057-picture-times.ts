import type { Migration } from '../migration';

/**
 * The presentation times of a conformed (VFR) clip's pictures (issue 37): the viewer maps the
 * clip's grid positions onto them (src-shared/picture-grid.ts). Read once from the file's container
 * when the viewer first asks, for the content it was read from (`fingerprint`); a float64 a picture.
 * Only proxies/picture-times-store.ts writes it.
 * Proxies of VFR clips made before are forgotten: their encoder rounded the times to the average
 * rate's tick (media/proxy-branch.ts SOURCE_CLOCK), so the clip's next decode writes them again
 * (under the same name, so no file is left behind).
 */
export const m0057PictureTimes: Migration = {
  version: 57,
  name: 'picture times of conformed clips',
  up(db) {
    db.exec(`
      CREATE TABLE picture_times (
        clip_id     INTEGER PRIMARY KEY REFERENCES clips(id) ON DELETE CASCADE,
        fingerprint TEXT,
        times       BLOB NOT NULL
      );
      DELETE FROM proxies WHERE clip_id IN (SELECT id FROM clips WHERE vfr = 1);
    `);
  },
};
