import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { TaskJournal } from '../service/fallback';

export type UrlTaskKind = 'embedding' | 'tagging';

/**
 * The owner of `url_tasks` (catalog migration 0056): the asynchronous tasks Add by URL sent for an
 * address, so an add cut off before its results were kept asks the service about them instead of
 * sending them again.
 */
export function createUrlTaskStore(db: CatalogDb) {
  return {
    /** The journal of one address's task of one kind, as the fallback calls use it. */
    journal(url: string, kind: UrlTaskKind, region: string): TaskJournal {
      return {
        recorded: () => (statement(db, 'SELECT task_id FROM url_tasks WHERE url = ? AND kind = ? AND region = ?').get(url, kind, region) as { task_id: string } | undefined)?.task_id,
        record: (taskId) => {
          statement(db, 'INSERT INTO url_tasks (url, kind, region, task_id, submitted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (url, kind, region) DO UPDATE SET task_id = excluded.task_id, submitted_at = excluded.submitted_at').run(url, kind, region, taskId, Date.now());
        },
        clear: () => {
          statement(db, 'DELETE FROM url_tasks WHERE url = ? AND kind = ? AND region = ?').run(url, kind, region);
        },
      };
    },

    /** The address's clip is catalogued with its results: nothing left to ask about. */
    clearUrl(url: string, region: string): void {
      statement(db, 'DELETE FROM url_tasks WHERE url = ? AND region = ?').run(url, region);
    },
  };
}
