import type { Migration } from '../migration';

/**
 * Which clips each import catalogued or changed. The import no longer probes (the pipeline's first
 * stage does), so what ffprobe makes of a drop's files is known after the import returns: its
 * summary reads their verdicts from here, live, instead of storing a count taken too early.
 */
export const m0020ImportClips: Migration = {
  version: 20,
  name: 'clips of each import',
  up(db) {
    db.exec(`
      CREATE TABLE import_clips (
        import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        clip_id   INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        PRIMARY KEY (import_id, clip_id)
      ) WITHOUT ROWID;
      CREATE INDEX import_clips_clip ON import_clips(clip_id);
    `);
  },
};
