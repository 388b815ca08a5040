import { afterEach, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * Catalog migration 0054: naming done before a team was possible is listed for the team, so a catalog
 * that joins later sends it; a forget's places and another seat's facts are not this editor's to send.
 */
it('0054 lists the names, hidden flags and editor facts made before it, and nothing else', () => {
  const { file, old } = catalogAtVersion(53, cleanups);
  old.prepare("INSERT INTO volumes (id, volume_key, mount_path, label, online, last_seen_at) VALUES (1, 'k', '/m', 'M', 1, 0)").run();
  old.prepare("INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (7, 1, 'a.mov', 'a.mov', 1, 1, 'done', 0, 0)").run();
  const person = old.prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  person.run('u-named', 'Maria', 'maria', 0, 500, 100);
  person.run('u-hidden', null, null, 1, null, 200);
  person.run('u-group', null, null, 0, null, 300);
  const fact = old.prepare('INSERT INTO people_facts (id, kind, person_uuid, clip_id, frame, time_s, x, y, w, h, at, by_seat) VALUES (?, ?, ?, 7, NULL, 0.5, 0.1, 0.1, 0.2, 0.2, ?, ?)');
  fact.run(1, 'is', 'u-named', 600, null);
  fact.run(2, 'forget', 'u-gone', 700, null);
  fact.run(3, 'is', 'u-named', 800, '00000000-0000-4000-8000-00000000000b');
  old.close();

  const db = openCatalog(file);
  cleanups.unshift(() => db.close());
  expect(db.prepare('SELECT kind, key, at FROM people_outbox ORDER BY kind, key').all()).toEqual([
    { kind: 'fact', key: '1', at: 600 },
    { kind: 'person', key: 'u-hidden', at: 200 },
    { kind: 'person', key: 'u-named', at: 500 },
  ]);
  expect(db.prepare('SELECT uuid, hidden_at, name_by, hidden_by FROM people ORDER BY id').all()).toEqual([
    { uuid: 'u-named', hidden_at: 0, name_by: null, hidden_by: null },
    { uuid: 'u-hidden', hidden_at: 200, name_by: null, hidden_by: null },
    { uuid: 'u-group', hidden_at: 0, name_by: null, hidden_by: null },
  ]);
});
