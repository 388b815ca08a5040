import type { Migration } from '../migration';

/** "128:117" -> 1.094; "0:1", "N/A", missing -> 1 (media/probe-parse.ts as this migration shipped). */
function parseSar(s: unknown): number {
  if (typeof s !== 'string' || !s) return 1;
  const [a, b] = s.split(':').map(Number);
  if (!a || !b || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return 1;
  return a / b;
}

/**
 * The sample aspect ratio becomes a column (`clips.sar`, as displayed: a quarter turn applies the
 * stored pixels' ratio to the other axis), written by the probe like every other fact it parses,
 * so nothing reads probe_json after the probe. Catalogued clips get it from the answer they keep,
 * read as the analysis stage read it until now: the first video stream's sample_aspect_ratio.
 */
export const m0041ClipSampleAspect: Migration = {
  version: 41,
  name: 'clip sample aspect ratio',
  up(db) {
    db.exec('ALTER TABLE clips ADD COLUMN sar REAL');
    const rows = db.prepare('SELECT id, rotation, probe_json FROM clips WHERE probe_json IS NOT NULL').all() as { id: number; rotation: number | null; probe_json: string }[];
    const set = db.prepare('UPDATE clips SET sar = ? WHERE id = ?');
    for (const r of rows) {
      let streams: unknown;
      try {
        streams = (JSON.parse(r.probe_json) as { streams?: unknown }).streams;
      } catch {
        continue;
      }
      const video = Array.isArray(streams) ? (streams as { codec_type?: unknown; sample_aspect_ratio?: unknown }[]).find((s) => s?.codec_type === 'video') : undefined;
      if (!video) continue;
      const sar = parseSar(video.sample_aspect_ratio);
      set.run(r.rotation === 90 || r.rotation === 270 ? 1 / sar : sar, r.id);
    }
  },
};
