import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingMigrations, readTeamMigrations, resolveTeamMigrationsDir } from '../../../src-main/core/team/server/migrate-team';
import { tempDir } from '../../helpers/paths';

describe('team migrations', () => {
  it('are numbered files 1..N of the folder, each with the checksum of its text', () => {
    const all = readTeamMigrations();
    expect(all.map((m) => m.version)).toEqual(all.map((_, i) => i + 1));
    expect(all[0]).toMatchObject({ version: 1, name: 'seats_clips_jobs_changes', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuse a gap, a misnamed file, and are found in a packaged layout', () => {
    const t = tempDir();
    try {
      fs.writeFileSync(path.join(t.dir, '0001_a.sql'), 'SELECT 1;');
      fs.writeFileSync(path.join(t.dir, '0003_c.sql'), 'SELECT 3;');
      expect(() => readTeamMigrations(t.dir)).toThrow(/numbered 1, 2, 3/);
      fs.renameSync(path.join(t.dir, '0003_c.sql'), path.join(t.dir, '2_b.sql'));
      expect(() => readTeamMigrations(t.dir)).toThrow(/NNNN_words\.sql/);
      fs.mkdirSync(path.join(t.dir, 'resources', 'team-migrations'), { recursive: true });
      expect(resolveTeamMigrationsDir({ resourcesPath: path.join(t.dir, 'resources'), appRoot: '/nonexistent' })).toBe(path.join(t.dir, 'resources', 'team-migrations'));
    } finally {
      t.cleanup();
    }
  });

  it('plan what the server lacks; refuse a server newer than the app or an applied file that changed', () => {
    const known = [1, 2, 3].map((version) => ({ version, name: `m${version}`, sql: `-- ${version}`, sha256: `h${version}` }));
    expect(pendingMigrations(known, []).map((m) => m.version)).toEqual([1, 2, 3]);
    expect(pendingMigrations(known, known.slice(0, 2)).map((m) => m.version)).toEqual([3]);
    expect(pendingMigrations(known, known)).toEqual([]);
    expect(() => pendingMigrations(known.slice(0, 2), known)).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('update Reelscout') }));
    expect(() => pendingMigrations(known, [{ ...known[0]!, sha256: 'other' }])).toThrow(expect.objectContaining({ kind: 'damaged' }));
  });
});
