import type { Migration } from '../migration';

/**
 * The request ids of Add by URL's asynchronous tasks (encode_video/async, video_tagging/async, sent
 * when the synchronous call answers 504), written the moment the service answers the submit. An add
 * cut off before its results were kept (the app quit, the limit ran out, a crash) asks the service
 * about that task (GET /async_status/{id}) when the address is added again, instead of sending it
 * again; the rows go once the clip is catalogued.
 */
export const m0056UrlTasks: Migration = {
  version: 56,
  name: 'url tasks: async request ids of Add by URL',
  up(db) {
    db.exec(`
      CREATE TABLE url_tasks (
        url          TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('embedding', 'tagging')),
        region       TEXT NOT NULL,
        task_id      TEXT NOT NULL,
        submitted_at INTEGER NOT NULL,
        PRIMARY KEY (url, kind, region)
      )
    `);
  },
};
