import type { CatalogDb } from '../../catalog/open-catalog';

/** A persisted block as stored: `block.<reason>` and its message and start as JSON. */
export interface FlagRow {
  name: string;
  value_json: string;
}

/** The owner of `queue_flags`: the gate's blocks that outlive a restart (the user's pause, a quota stop). */
export function createQueueFlagsStore(db: CatalogDb) {
  const blocks = db.prepare("SELECT name, value_json FROM queue_flags WHERE name LIKE 'block.%'");
  const saveBlock = db.prepare(
    'INSERT INTO queue_flags (name, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  );
  const dropBlock = db.prepare('DELETE FROM queue_flags WHERE name = ?');
  return {
    /** The persisted network blocks (`block.<reason>`), as stored. */
    persistedBlocks: () => blocks.all() as FlagRow[],
    saveBlock: (name: string, valueJson: string, now: number) => saveBlock.run(name, valueJson, now),
    dropBlock: (name: string) => dropBlock.run(name),
  };
}

export type QueueFlagsStore = ReturnType<typeof createQueueFlagsStore>;
