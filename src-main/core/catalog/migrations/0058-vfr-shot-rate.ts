import type { Migration } from '../migration';

/** "30000/1001" -> 29.97; "0/0" and anything else -> null (media/probe-parse.ts `parseRate` as this migration shipped). */
function parseRate(r: unknown): number | null {
  if (typeof r !== 'string' || !r) return null;
  const [a, b] = r.split('/');
  const n = Number(a);
  const d = b === undefined ? 1 : Number(b);
  if (!Number.isFinite(n) || !Number.isFinite(d) || n <= 0 || d <= 0) return null;
  return n / d;
}

/** The rate a variable-rate clip is counted at (media/probe-parse.ts `nominalRate` as this migration shipped). */
function nominalRate(r: number | null, avg: number | null): number | null {
  if (avg === null) return r;
  if (r !== null && r > avg && r <= Math.min(120, 2 * avg)) return r;
  return avg;
}

interface VideoStream {
  codec_type?: unknown;
  disposition?: { attached_pic?: unknown };
  r_frame_rate?: unknown;
  avg_frame_rate?: unknown;
}

/**
 * A variable-rate clip is counted at the rate it was shot at (ffprobe's r_frame_rate when it is a
 * camera's), no longer at its average: counted at its average (24 for a 30 fps phone dropping to
 * 20) a fifth of its pictures showed at no frame and the readout and marks stood on the wrong
 * grid. The probe writes the new rate; clips probed before keep `clips.fps` until their file
 * changes, so here each VFR clip takes it from the ffprobe answer it keeps (`probe_json`), read as
 * the probe reads it: the first video stream that is not cover art. A clip without a kept answer
 * keeps its rate. Marks keep the rate they were saved with.
 * Proxies of VFR clips are forgotten too: with the bundled ffmpeg their last picture had no
 * duration and players left it out (media/mp4-last-sample.ts); the background proxies make them
 * again, whole, under the same name.
 */
export const m0058VfrShotRate: Migration = {
  version: 58,
  name: 'variable-rate clips counted at the rate they were shot at',
  up(db) {
    const rows = db.prepare('SELECT id, fps, probe_json FROM clips WHERE vfr = 1 AND probe_json IS NOT NULL').all() as { id: number; fps: number | null; probe_json: string }[];
    const set = db.prepare('UPDATE clips SET fps = ? WHERE id = ?');
    for (const row of rows) {
      let streams: unknown;
      try {
        streams = (JSON.parse(row.probe_json) as { streams?: unknown }).streams;
      } catch {
        continue;
      }
      const video = Array.isArray(streams) ? (streams as VideoStream[]).find((s) => s?.codec_type === 'video' && s.disposition?.attached_pic !== 1) : undefined;
      if (!video) continue;
      const fps = nominalRate(parseRate(video.r_frame_rate), parseRate(video.avg_frame_rate));
      if (fps !== null && fps !== row.fps) set.run(fps, row.id);
    }
    db.exec('DELETE FROM proxies WHERE clip_id IN (SELECT id FROM clips WHERE vfr = 1)');
  },
};
