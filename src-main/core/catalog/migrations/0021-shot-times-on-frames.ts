import type { Migration } from '../migration';

/** The rates timecode counts in, frozen here (a migration is text: it does not import live code). */
const STANDARD_RATES: readonly [number, number][] = [
  [24000, 1001], [24, 1], [25, 1], [30000, 1001], [30, 1], [48, 1], [50, 1], [60000, 1001], [60, 1], [100, 1], [120000, 1001], [120, 1],
];

function rateOf(fps: number): [number, number] {
  const dist = ([n, d]: [number, number]) => Math.abs(n / d - fps) / (n / d);
  const nearest = STANDARD_RATES.reduce((a, b) => (dist(b) < dist(a) ? b : a));
  return dist(nearest) < 0.001 ? nearest : [Math.round(fps * 1000), 1000];
}

interface ShotRow {
  id: number;
  start_s: number;
  end_s: number;
  start_frame: number;
  end_frame: number | null;
  transition_start_s: number | null;
  transition_end_s: number | null;
}

/**
 * Shot times were read from ffmpeg's showinfo `pts_time`, printed with six significant digits, so
 * a shot's first frame could sit a hair before its start (9.20833 s for frame 221 at 24 fps) and
 * every count in seconds put it on the frame before. New decodes take exact times from the integer
 * pts. Here the stored times of constant-rate clips move onto their frames: a shot's start and end
 * to the time of its decoded frame number, a transition's span to the nearest frame, and the
 * first and last segment of each shot (which start and end where the shot does) with them. Times
 * more than half a frame away from their frame (a stream that does not start at 0) are left alone.
 */
export const m0021ShotTimesOnFrames: Migration = {
  version: 21,
  name: 'shot and segment times exact on their frames',
  up(db) {
    const clips = db
      .prepare('SELECT id, fps FROM clips WHERE vfr = 0 AND fps > 0 AND EXISTS (SELECT 1 FROM shots s WHERE s.clip_id = clips.id AND s.start_frame IS NOT NULL)')
      .all() as { id: number; fps: number }[];
    const shotsOf = db.prepare(
      'SELECT id, start_s, end_s, start_frame, end_frame, transition_start_s, transition_end_s FROM shots WHERE clip_id = ? AND start_frame IS NOT NULL',
    );
    const setShot = db.prepare('UPDATE shots SET start_s = ?, end_s = ?, transition_start_s = ?, transition_end_s = ? WHERE id = ?');
    const setSegStart = db.prepare('UPDATE segments SET start_s = ? WHERE shot_id = ? AND start_s = ?');
    const setSegEnd = db.prepare('UPDATE segments SET end_s = ? WHERE shot_id = ? AND end_s = ?');
    for (const c of clips) {
      const [num, den] = rateOf(c.fps);
      const frameS = den / num;
      const onFrame = (t: number, frame: number) => (Math.abs(t - frame * frameS) < frameS / 2 ? (frame * den) / num : t);
      const nearest = (t: number | null) => (t === null ? null : onFrame(t, Math.round(t / frameS)));
      for (const s of shotsOf.all(c.id) as ShotRow[]) {
        const start = onFrame(s.start_s, s.start_frame);
        const end = s.end_frame === null ? s.end_s : onFrame(s.end_s, s.end_frame);
        if (start !== s.start_s) setSegStart.run(start, s.id, s.start_s);
        if (end !== s.end_s) setSegEnd.run(end, s.id, s.end_s);
        setShot.run(start, end, nearest(s.transition_start_s), nearest(s.transition_end_s), s.id);
      }
    }
  },
};
