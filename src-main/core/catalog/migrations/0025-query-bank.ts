import type { Migration } from '../migration';

/**
 * The reference queries that calibrate relevance (search/relevance/query-bank.ts) are text
 * embeddings like any query's, cached beside them, but they are not the user's: they are never
 * evicted by the cache's bound and never listed in the recent searches. `bank` holds the bank's
 * version the row was encoded for (NULL for a query someone typed).
 */
export const m0025QueryBank: Migration = {
  version: 25,
  name: 'reference queries in the query cache',
  up(db) {
    db.exec(`
      ALTER TABLE query_embeddings ADD COLUMN bank TEXT;
      CREATE INDEX query_embeddings_bank ON query_embeddings(bank, model, region) WHERE bank IS NOT NULL;
    `);
  },
};
