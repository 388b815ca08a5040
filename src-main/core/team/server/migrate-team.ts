import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ClientBase } from 'pg';
import { AppError } from '../../../../src-shared/errors';
import { electronResourcesPath, findAppRoot, type ResourceLocations } from '../../util/app-resources';
import { applyMigration, appliedMigrations, withMigrationLock, type AppliedMigration } from './migration-store';

/**
 * The team schema's numbered migrations: `migrations/NNNN_words.sql`, frozen text applied in order by
 * the schema owner. Their checksums are recorded, so a file edited after it shipped is refused
 * instead of leaving seats with schemas that differ under the same number.
 */
export interface TeamMigration extends AppliedMigration {
  sql: string;
}

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** The folder of the .sql files: packaged resources (electron-builder extraResources), beside this file, the repository. */
export function resolveTeamMigrationsDir(loc: ResourceLocations = {}): string {
  const res = loc.resourcesPath ?? electronResourcesPath();
  const root = loc.appRoot ?? findAppRoot();
  const candidates = [res && path.join(res, 'team-migrations'), path.join(__dirname, 'migrations'), root && path.join(root, 'src-main', 'core', 'team', 'server', 'migrations')];
  const found = candidates.find((c): c is string => typeof c === 'string' && fs.existsSync(c));
  if (!found) throw new AppError('not_found', `team migrations not found; looked in: ${candidates.filter(Boolean).join(', ')}`);
  return found;
}

/** Every migration file of the folder, in order; numbers start at 1 and have no gaps. */
export function readTeamMigrations(dir: string = resolveTeamMigrationsDir()): TeamMigration[] {
  const out = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const m = FILE_NAME.exec(f);
      if (!m) throw new AppError('internal', `team migration ${f}: the name must be NNNN_words.sql`);
      const sql = fs.readFileSync(path.join(dir, f), 'utf8');
      return { version: Number(m[1]), name: m[2]!, sql, sha256: createHash('sha256').update(sql).digest('hex') };
    })
    .sort((a, b) => a.version - b.version);
  out.forEach((m, i) => {
    if (m.version !== i + 1) throw new AppError('internal', `team migrations must be numbered 1, 2, 3...: found ${m.version} at position ${i + 1}`);
  });
  return out;
}

/**
 * The migrations still to apply, given what the database has: refused when the database is newer
 * than this app or when a file applied there has changed since.
 */
export function pendingMigrations(known: readonly TeamMigration[], applied: readonly AppliedMigration[]): TeamMigration[] {
  const latest = known.at(-1)?.version ?? 0;
  const newest = applied.reduce((v, a) => Math.max(v, a.version), 0);
  if (newest > latest) throw new AppError('invalid', `the team schema is at version ${newest}, newer than this app (${latest}): update Reelscout`);
  const byVersion = new Map(applied.map((a) => [a.version, a]));
  for (const m of known) {
    const a = byVersion.get(m.version);
    if (a && a.sha256 !== m.sha256) throw new AppError('damaged', `team migration ${m.version} (${a.name}) differs from the one the server applied: migrations are frozen once shipped`);
  }
  return known.filter((m) => !byVersion.has(m.version));
}

/**
 * Brings the team schema up to date. Needs a connection of a role that may act as the schema owner
 * (an administrator's, never a seat's); seats starting together serialise on one lock, and the first
 * applies what the others then find done.
 */
export async function migrateTeamSchema(client: ClientBase, known: readonly TeamMigration[] = readTeamMigrations()): Promise<{ applied: number[]; version: number }> {
  return withMigrationLock(client, async () => {
    const todo = pendingMigrations(known, await appliedMigrations(client));
    for (const m of todo) await applyMigration(client, m);
    return { applied: todo.map((m) => m.version), version: known.at(-1)?.version ?? 0 };
  });
}
