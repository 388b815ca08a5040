import type { Migration } from '../migration';

/** The rates cameras shoot at, grouped as a local rate cannot tell them apart (media/probe-parse.ts as this migration shipped). */
const CAMERA_RATES: readonly (readonly number[])[] = [[24000 / 1001, 24], [25], [30000 / 1001, 30], [48], [50], [60000 / 1001, 60], [120]];

/** The rate a VFR clip was shot at from its pictures' times (media/probe-parse.ts `nominalRateOfTimes` as this migration shipped). */
function nominalRateOfTimes(times: readonly number[]): number | null {
  const t = times.slice(0, 300);
  const windows = t.length - 10;
  if (windows < 1) return null;
  const group = Array.from({ length: windows }, (_, k) => {
    const span = t[k + 10]! - t[k]!;
    return span > 0 ? CAMERA_RATES.findIndex((g) => g.some((r) => Math.abs(10 / span / r - 1) <= 0.02)) : -1;
  });
  const votes = CAMERA_RATES.map((_, g) => group.filter((x) => x === g).length);
  const best = votes.reduce((b, v, g) => (v >= votes[b]! ? g : b), 0);
  if (votes[best]! * 4 < windows) return null;
  let [from, to, runFrom] = [0, -1, 0];
  group.forEach((x, k) => {
    if (x !== best) runFrom = k + 1;
    else if (k - runFrom > to - from) [from, to] = [runFrom, k];
  });
  const xs = Array.from({ length: to + 10 - from + 1 }, (_, i) => i);
  const ys = xs.map((i) => t[from + i]!);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const fitted = xs.reduce((a, x) => a + (x - mx) ** 2, 0) / xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  return CAMERA_RATES[best]!.reduce((a, b) => (Math.abs(b - fitted) < Math.abs(a - fitted) ? b : a));
}

/**
 * A variable-rate clip is counted at the rate its pictures show it was shot at (the probe reads its
 * first pictures' times: media/probe.ts), no longer at its average where ffprobe's r_frame_rate is
 * a clock's tick (a phone on 1/90000: 24.19 for a 30 fps phone clip dropping to 20, counted at 24).
 * A migration reads no file, so only the VFR clips whose times the viewer has read (kept in
 * `picture_times` for their current content, migration 0057) move here; the others keep their rate
 * until their file changes. Marks keep the rate they were saved with. Then every kept time is
 * forgotten, to be read again when the viewer asks: they held the pictures an MP4/MOV edit list
 * hides (a clip trimmed with `-c copy`), which a player never presents.
 */
export const m0063VfrNominalRate: Migration = {
  version: 63,
  name: 'variable-rate clips counted at the rate their pictures show',
  up(db) {
    const rows = db
      .prepare('SELECT c.id, c.fps, p.times FROM clips c JOIN picture_times p ON p.clip_id = c.id WHERE c.vfr = 1 AND p.fingerprint IS c.fingerprint')
      .all() as { id: number; fps: number | null; times: Buffer }[];
    const set = db.prepare('UPDATE clips SET fps = ? WHERE id = ?');
    for (const row of rows) {
      if (row.times.length % 8 !== 0) continue;
      const bytes = Uint8Array.from(row.times);
      const fps = nominalRateOfTimes(Array.from(new Float64Array(bytes.buffer, 0, bytes.length / 8)).filter((t) => t >= 0));
      if (fps !== null && fps !== row.fps) set.run(fps, row.id);
    }
    db.exec('DELETE FROM picture_times');
  },
};
