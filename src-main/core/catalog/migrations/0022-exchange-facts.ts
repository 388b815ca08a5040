import type { Migration } from '../migration';

/**
 * Facts the hand-off files need, parsed once at probe time instead of from probe_json at export:
 * the first audio stream's sample rate, the channels of each audio stream in order (FCP7 XML
 * writes one linked audio track per source channel) and the reel or tape name a camera or a
 * conform wrote (EDL and XML reels). Catalogued clips get them from the probe answer they keep.
 */
export const m0022ExchangeFacts: Migration = {
  version: 22,
  name: 'clip audio layout, audio rate and reel name',
  up(db) {
    db.exec(`
      ALTER TABLE clips ADD COLUMN audio_rate INTEGER;
      ALTER TABLE clips ADD COLUMN audio_layout TEXT;   -- JSON array: channels per audio stream
      ALTER TABLE clips ADD COLUMN reel_name TEXT;
      UPDATE clips SET
        audio_rate = (
          SELECT CAST(json_extract(s.value, '$.sample_rate') AS INTEGER) FROM json_each(clips.probe_json, '$.streams') s
          WHERE json_extract(s.value, '$.codec_type') = 'audio' ORDER BY s.key LIMIT 1),
        audio_layout = (
          SELECT json_group_array(channels) FROM (
            SELECT json_extract(s.value, '$.channels') AS channels FROM json_each(clips.probe_json, '$.streams') s
            WHERE json_extract(s.value, '$.codec_type') = 'audio' AND json_extract(s.value, '$.channels') > 0 ORDER BY s.key)),
        reel_name = COALESCE(
          (SELECT NULLIF(TRIM(COALESCE(json_extract(s.value, '$.tags.reel_name'), json_extract(s.value, '$.tags.tape_name'),
                                       json_extract(s.value, '$.tags.reel'), json_extract(s.value, '$.tags.tape'))), '')
           FROM json_each(clips.probe_json, '$.streams') s
           WHERE COALESCE(json_extract(s.value, '$.tags.reel_name'), json_extract(s.value, '$.tags.tape_name'),
                          json_extract(s.value, '$.tags.reel'), json_extract(s.value, '$.tags.tape')) IS NOT NULL ORDER BY s.key LIMIT 1),
          NULLIF(TRIM(COALESCE(json_extract(clips.probe_json, '$.format.tags.reel_name'), json_extract(clips.probe_json, '$.format.tags.tape_name'),
                               json_extract(clips.probe_json, '$.format.tags.reel'), json_extract(clips.probe_json, '$.format.tags.tape'))), ''))
      WHERE probe_json IS NOT NULL AND json_valid(probe_json);
    `);
  },
};
