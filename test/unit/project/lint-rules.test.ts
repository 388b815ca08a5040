import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

/**
 * The project's own lint rules (eslint-rules/index.mjs), run through the repository's ESLint
 * configuration on files that break them: `npm run lint` fails on these, so the layers and the
 * table owners hold without anyone remembering them.
 */
const eslint = new ESLint({ cwd: REPO_ROOT });

async function problems(relPath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, relPath) });
  return r!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('sql-in-stores', () => {
  const query = `import type { CatalogDb } from '../catalog/open-catalog';\nexport const n = (db: CatalogDb) => db.prepare('SELECT COUNT(*) FROM clips').get();\n`;

  it('refuses a statement outside a table owner', async () => {
    const got = await problems('src-main/core/search/some-view.ts', query);
    expect(got.filter((p) => p.startsWith('local/sql-in-stores'))).toHaveLength(2);
    expect(got.join('\n')).toContain('`.prepare(` runs SQL');
  });

  it('accepts it in a store, a repository and the catalog', async () => {
    for (const f of ['src-main/core/search/some-store.ts', 'src-main/core/library/clips-repository.ts', 'src-main/core/catalog/open-catalog.ts']) {
      expect((await problems(f, query)).filter((p) => p.startsWith('local/sql-in-stores')), f).toEqual([]);
    }
  });

  it('refuses SQL text handed to an owner from outside, and leaves other .exec calls alone', async () => {
    const text = `export const sql = \`UPDATE clips SET status = 'error' WHERE id = ?\`;\nexport const m = /x/.exec('y');\n`;
    const got = await problems('src-main/core/pipeline/some-stage.ts', text);
    expect(got).toEqual([expect.stringContaining('local/sql-in-stores: SQL text belongs')]);
  });
  it("refuses node-postgres' .query( with SQL text outside an owner, schema-qualified names included, and accepts it in a store", async () => {
    const pgQuery = `import type { ClientBase } from 'pg';\nexport const claim = (c: ClientBase) => c.query("UPDATE team.jobs SET state = 'running' WHERE id = $1", [1]);\nexport const wake = (c: ClientBase) => c.query('LISTEN team_changes');\n`;
    const got = await problems('src-main/core/team/claim-loop.ts', pgQuery);
    expect(got.filter((p) => p.startsWith('local/sql-in-stores'))).toHaveLength(2);
    expect(got.join('\n')).toContain('`.query(` runs SQL');
    expect((await problems('src-main/core/team/server/team-job-store.ts', pgQuery)).filter((p) => p.startsWith('local/sql-in-stores'))).toEqual([]);
  });
});

describe('layers', () => {
  it('refuses an upward import in the core', async () => {
    const got = await problems('src-main/core/media/some-tool.ts', `import { gridFilter } from '../pipeline/shot-tensors';\nexport const g = gridFilter;\n`);
    expect(got).toEqual([expect.stringContaining('local/layers: media is below pipeline in the layers')]);
  });

  it('accepts a downward one, and a module folder imported by its index', async () => {
    expect(await problems('src-main/core/pipeline/some-stage.ts', `import { ffPath } from '../media/ffmpeg-locate';\nimport { ServiceClient } from '../service';\nexport const x = [ffPath, ServiceClient];\n`)).toEqual([]);
    expect(await problems('src-main/core/library/some.ts', `import { ServiceClient } from '../service';\nexport const x = ServiceClient;\n`)).toEqual([]);
  });

  it('keeps migrations frozen: no import of live code', async () => {
    const got = await problems('src-main/core/catalog/migrations/0099-something.ts', `import type { Migration } from '../migration';\nimport { canonicalTag } from '../../tags/tag-vocabulary';\nexport const m: Migration = { version: 99, name: 'x', up: () => void canonicalTag };\n`);
    expect(got).toEqual([expect.stringContaining('local/layers: a migration is frozen text')]);
  });

  it('lets a migration read a frozen snapshot beside it, and keeps the snapshot frozen too', async () => {
    const migration = `import type { Migration } from '../migration';\nimport { frozenCanonicalTag } from './frozen-tag-vocabulary';\nexport const m: Migration = { version: 99, name: 'x', up: () => void frozenCanonicalTag };\n`;
    expect(await problems('src-main/core/catalog/migrations/0099-something.ts', migration)).toEqual([]);
    const snapshot = `import { canonicalTag } from '../../tags/tag-vocabulary';\nexport const f = canonicalTag;\n`;
    expect(await problems('src-main/core/catalog/migrations/frozen-something.ts', snapshot)).toEqual([expect.stringContaining('local/layers: a migration is frozen text')]);
    expect(await problems('src-main/core/catalog/migrations/0099-something.ts', `import { MIGRATIONS } from './index';\nexport const x = MIGRATIONS;\n`)).toEqual([
      expect.stringContaining('local/layers: a migration is frozen text'),
    ]);
  });

  it('keeps every file outside the team room out of it: only the port names it', async () => {
    const outside = (from: string) => `local/layers: ${from} is outside the team room: it names the room only through src-main/core/team-port.ts`;
    // A sync, a store of the server, the runtime: all out of reach of a solo module, types included.
    expect(await problems('src-main/core/pipeline/some-stage.ts', `import { ClipSharing } from '../team/syncs/clip-sharing';\nexport const x = ClipSharing;\n`)).toEqual([expect.stringContaining(outside('pipeline'))]);
    expect(await problems('src-main/core/pipeline/some-stage.ts', `import type { TeamLease } from '../team/server/team-job-store';\nexport type X = TeamLease;\n`)).toEqual([expect.stringContaining(outside('pipeline'))]);
    // The composition too, though it stands above the room: settings/ and the core's root go through the port's door.
    expect(await problems('src-main/core/settings/settings-module.ts', `import { createTeamHandlers } from '../team/team-handlers';\nexport const x = createTeamHandlers;\n`)).toEqual([expect.stringContaining(outside('settings'))]);
    expect(await problems('src-main/core/settings/settings-module.ts', `import type { TeamSettings } from '../team/seat/team-settings';\nexport type X = TeamSettings;\n`)).toEqual([expect.stringContaining(outside('settings'))]);
    expect(await problems('src-main/core/catalog-app.ts', `import { createTeamRuntime } from './team/team-runtime';\nexport const x = createTeamRuntime;\n`)).toEqual([expect.stringContaining(outside('(root)'))]);
    expect(await problems('src-main/core/catalog-app.ts', `import { openTeamRoom } from './team/team-room';\nexport const x = openTeamRoom;\n`)).toEqual([expect.stringContaining(outside('(root)'))]);
    expect(await problems('src-main/core/settings/settings-module.ts', `import { openTeamRoom, type TeamRoom } from '../team-port';\nexport const x: (typeof openTeamRoom) | TeamRoom = openTeamRoom;\n`)).toEqual([]);
    expect(await problems('src-main/core/catalog-app.ts', `import type { TeamRoom } from './team-port';\nexport type X = TeamRoom;\n`)).toEqual([]);
    // Solo code takes the port's types only: a value import would load the room.
    expect(await problems('src-main/core/pipeline/some-stage.ts', `import type { ClipShare } from '../team-port';\nexport type X = ClipShare;\n`)).toEqual([]);
    expect(await problems('src-main/core/library/some.ts', `import type { TeamRuntime } from '../team-port';\nexport type X = TeamRuntime;\n`)).toEqual([]);
    expect(await problems('src-main/core/library/some.ts', `import { openTeamRoom } from '../team-port';\nexport const x = openTeamRoom;\n`)).toEqual([
      expect.stringContaining('local/layers: library is solo code: it takes only types from team-port.ts'),
    ]);
    // The room itself works through the solo modules below it, and implements the port.
    expect(await problems('src-main/core/team/syncs/some-sync.ts', `import { shotsOfClip } from '../../library/shot-store';\nimport type { ClipShare } from '../../team-port';\nexport const x: ClipShare | typeof shotsOfClip = shotsOfClip;\n`)).toEqual([]);
    // The port re-exports the door and nothing else of the room, and names nothing else above it.
    expect(await problems('src-main/core/team-port.ts', `export { openTeamRoom, type TeamRoom } from './team/team-room';\n`)).toEqual([]);
    expect(await problems('src-main/core/team-port.ts', `import { TEAM_BOUNDS } from './team/rules/team-bounds';\nexport const x = TEAM_BOUNDS;\n`)).toEqual([expect.stringContaining("local/layers: team-port.ts holds types from below and the room's door")]);
    expect(await problems('src-main/core/team-port.ts', `export type { TeamSettings } from './team/seat/team-settings';\n`)).toEqual([expect.stringContaining(outside('team-port'))]);
    expect(await problems('src-main/core/team-port.ts', `import type { VideoRow } from './collections/collection-video-row';\nexport type X = VideoRow;\n`)).toEqual([expect.stringContaining('local/layers: team-port is below collections')]);
  });

  it('keeps the core off its transports and the renderer off main', async () => {
    expect(await problems('src-main/core/library/some.ts', `import { startWebServer } from '../../web/web-server';\nexport const x = startWebServer;\n`)).toEqual([expect.stringContaining('the core runs without its transports')]);
    expect(await problems('src-renderer/src/some.ts', `import { LAYERS } from '../../src-main/core/app-core';\nexport const x = LAYERS;\n`)).toEqual([expect.stringContaining('renderer code must not import src-main')]);
  });
});
