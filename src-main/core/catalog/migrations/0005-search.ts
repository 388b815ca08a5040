import type { Migration } from '../migration';

/**
 * Search bookkeeping:
 * - query_embeddings: the encode_text answer per (normalised text, model, region), so a query typed
 *   before runs again without the service (offline, or just without spending quota);
 * - embedding_changes: a log every write to `embeddings` appends to (by trigger, so no writer can
 *   forget it, cascaded deletes included). The vector index replays it from the sequence number it
 *   was saved at, instead of rebuilding from scratch after each start;
 * - embeddings_space: a covering index, so filters and facets can ask "has an embedding in this
 *   space" without touching the vectors;
 * - search_state: small named values (the generation each saved index reflects, how far the log was pruned).
 */
export const m0005Search: Migration = {
  version: 5,
  name: 'search: query-embedding cache, embedding change log',
  up(db) {
    db.exec(`
      CREATE TABLE query_embeddings (
        text_norm     TEXT NOT NULL,            -- NFKC, case-folded, whitespace collapsed
        model         TEXT NOT NULL,
        region        TEXT NOT NULL,
        text          TEXT NOT NULL,            -- as last typed, for the history list
        dim           INTEGER NOT NULL,
        vector        BLOB NOT NULL,            -- float32 little-endian, dim values, as received
        created_at    INTEGER NOT NULL,
        last_used_at  INTEGER NOT NULL,
        uses          INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (text_norm, model, region)
      ) WITHOUT ROWID;
      CREATE INDEX query_embeddings_recent ON query_embeddings(model, region, last_used_at);

      -- Which segments have an embedding in a space, answered without reading the vectors: model and
      -- region sit after the blob in each row, so without this every filter would page in every vector.
      CREATE INDEX embeddings_space ON embeddings(model, region, segment_id);

      CREATE TABLE embedding_changes (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused, so it orders every change
        segment_id  INTEGER NOT NULL
      );
      CREATE TRIGGER embeddings_log_insert AFTER INSERT ON embeddings BEGIN
        INSERT INTO embedding_changes(segment_id) VALUES (NEW.segment_id);
      END;
      CREATE TRIGGER embeddings_log_update AFTER UPDATE ON embeddings BEGIN
        INSERT INTO embedding_changes(segment_id) VALUES (NEW.segment_id);
        INSERT INTO embedding_changes(segment_id) SELECT OLD.segment_id WHERE OLD.segment_id <> NEW.segment_id;
      END;
      CREATE TRIGGER embeddings_log_delete AFTER DELETE ON embeddings BEGIN
        INSERT INTO embedding_changes(segment_id) VALUES (OLD.segment_id);
      END;

      CREATE TABLE search_state (
        name   TEXT PRIMARY KEY,
        value  INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
