import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { createCollectionStore } from '../../../src-main/core/collections/collection-store';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const SEAT = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';

describe('migration 0059: the server stamp of a collection member\'s presence', () => {
  it('rows another seat\'s version made hold its stamp; this catalog\'s own adds and removals are pending, their own time as their base (one still waiting lands if later than the server\'s last change)', () => {
    const { file, old } = catalogAtVersion(58, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'done', 1, 1)`);
    for (const id of [1, 2, 3, 4]) clip.run(id, `c${id}.mov`, `c${id}.mov`);
    const row = old.prepare(
      `INSERT INTO collection_videos (collection_id, region, clip_id, status, uploads, attached_at, added_by, removed_at, removed_by, updated_at) VALUES ('col', 'asia', ?, 'queued', 0, ?, ?, ?, ?, 1)`,
    );
    row.run(1, 100, OTHER, null, null); // added by another seat
    row.run(2, 100, OTHER, 200, OTHER); // added and removed by another seat
    row.run(3, 300, null, null, null); // this catalog's own add
    row.run(4, 100, OTHER, 400, null); // another seat's add, this catalog's removal
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    expect(db.prepare('SELECT clip_id, attached_at, presence_at, presence_by FROM collection_videos ORDER BY clip_id').all()).toEqual([
      { clip_id: 1, attached_at: 100, presence_at: 100, presence_by: OTHER },
      { clip_id: 2, attached_at: 100, presence_at: 200, presence_by: OTHER },
      { clip_id: 3, attached_at: 300, presence_at: 300, presence_by: null },
      { clip_id: 4, attached_at: 100, presence_at: 400, presence_by: null },
    ]);
    // what this seat sends of each, once listed: its base as the add, a removal where it holds the clip out
    db.prepare("INSERT INTO collection_outbox (collection_id, region, clip_id, at) SELECT 'col', 'asia', clip_id, clip_id FROM collection_videos").run();
    db.prepare('INSERT INTO team_clips (clip_id, team_clip_id, linked_at) SELECT id, id + 10, 1 FROM clips').run();
    const sent = createCollectionStore(db).unsentMembers(SEAT, 10).members.map((m) => [m.teamClipId, m.version.added, m.version.removed]);
    expect(sent).toEqual([
      [11, { at: 100, by: OTHER }, null],
      [12, { at: 200, by: OTHER }, { at: 200, by: OTHER }],
      [13, { at: 300, by: SEAT }, null],
      [14, { at: 400, by: SEAT }, { at: 400, by: SEAT }],
    ]);
  });
});
