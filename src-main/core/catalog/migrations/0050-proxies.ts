import type { Migration } from '../migration';

/**
 * Viewing proxies (proxies/): one per clip at most, made by the clip's analysis decode or by the
 * background proxy work for clips indexed before proxies existed. `clips.pix_fmt` becomes a column
 * (the probe writes it like every other fact) because whether the player can show the original
 * depends on it (H.264 in 8-bit 4:2:0 plays, 10-bit or 4:2:2 does not); catalogued clips get it
 * from the probe answer they keep, read as media/probe-parse.ts reads it.
 */
export const m0050Proxies: Migration = {
  version: 50,
  name: 'viewing proxies',
  up(db) {
    db.exec(`
      ALTER TABLE clips ADD COLUMN pix_fmt TEXT;
      CREATE TABLE proxies (
        clip_id      INTEGER PRIMARY KEY REFERENCES clips(id) ON DELETE CASCADE,
        file         TEXT NOT NULL,            -- under the cache folder's proxies/
        fingerprint  TEXT,                     -- the clip's content fingerprint it was made from
        bytes        INTEGER NOT NULL,
        frames       INTEGER NOT NULL,         -- video packets in the proxy: equal to the original's decoded frames
        made_at      INTEGER NOT NULL,
        used_at      INTEGER NOT NULL          -- last played: the storage budget evicts the least recently used
      );
      CREATE INDEX proxies_used ON proxies(used_at);
    `);
    const rows = db.prepare('SELECT id, probe_json FROM clips WHERE probe_json IS NOT NULL').all() as { id: number; probe_json: string }[];
    const set = db.prepare('UPDATE clips SET pix_fmt = ? WHERE id = ?');
    for (const r of rows) {
      let streams: unknown;
      try {
        streams = (JSON.parse(r.probe_json) as { streams?: unknown }).streams;
      } catch {
        continue;
      }
      const video = Array.isArray(streams)
        ? (streams as { codec_type?: unknown; pix_fmt?: unknown; disposition?: { attached_pic?: unknown } }[]).find((s) => s?.codec_type === 'video' && s.disposition?.attached_pic !== 1)
        : undefined;
      if (typeof video?.pix_fmt === 'string') set.run(video.pix_fmt, r.id);
    }
  },
};
