import type { Migration } from '../migration';

/**
 * `segments.start_frame` / `end_frame`: where a segment (the part of a shot one embedding stands
 * for, hence a search result's range) starts and ends, as decoded frame numbers with Out exclusive
 * (half-open [start_frame, end_frame), as `shots` counts them). Its `start_s` / `end_s` stay its
 * presentation times. Until now a segment had only times, rounded to the millisecond by the tensor
 * kwargs, and every count of them in frames floored: a shot's last frame was lost.
 *
 * Here each stored segment takes the frames of its shot's frames at its times: a time within half a
 * frame of the shot's start or end is that frame (the first and last segment of a shot start and end
 * where it does, and their times become the shot's exact times); one inside the shot, the frame
 * nearest to it, counted on the shot's own frames. Segments of a shot without frames (a clip the
 * service analysed from its URL) keep NULL: their times are all there is.
 */
export const m0052SegmentFrames: Migration = {
  version: 52,
  name: 'segment frames',
  up(db) {
    db.exec('ALTER TABLE segments ADD COLUMN start_frame INTEGER');
    db.exec('ALTER TABLE segments ADD COLUMN end_frame INTEGER');
    // Frame of time t in a shot of n frames over [a, b): a + round((t - a) * n / (b - a)), clamped to the shot.
    const frameAt = (t: string) =>
      `(SELECT max(sh.start_frame, min(sh.end_frame, sh.start_frame + CAST(round((${t} - sh.start_s) * (sh.end_frame - sh.start_frame) / (sh.end_s - sh.start_s)) AS INTEGER)))
          FROM shots sh WHERE sh.id = segments.shot_id)`;
    db.exec(`
      UPDATE segments SET start_frame = ${frameAt('segments.start_s')}, end_frame = ${frameAt('segments.end_s')}
       WHERE EXISTS (SELECT 1 FROM shots sh WHERE sh.id = segments.shot_id AND sh.start_frame IS NOT NULL AND sh.end_frame IS NOT NULL AND sh.end_s > sh.start_s);
      UPDATE segments SET end_frame = start_frame + 1 WHERE end_frame IS NOT NULL AND end_frame <= start_frame;
      UPDATE segments SET start_s = (SELECT sh.start_s FROM shots sh WHERE sh.id = segments.shot_id)
       WHERE start_frame = (SELECT sh.start_frame FROM shots sh WHERE sh.id = segments.shot_id);
      UPDATE segments SET end_s = (SELECT sh.end_s FROM shots sh WHERE sh.id = segments.shot_id)
       WHERE end_frame = (SELECT sh.end_frame FROM shots sh WHERE sh.id = segments.shot_id);
    `);
  },
};
