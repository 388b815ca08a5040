import pg from 'pg';
import { migrateTeamSchema } from '../src-main/core/team/server/migrate-team';

/**
 * The team server's migrations, run by its administrator after scripts/team-server-setup.sql and
 * after each Reelscout update that brings new ones. Connects the way psql does, from the libpq
 * environment (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGSSLMODE...), as a role that may
 * SET ROLE reelscout_owner (a superuser, or a member of it): never a seat's login.
 *   PGHOST=/var/run/postgresql PGDATABASE=reelscout_team PGUSER=postgres npm run team:migrate
 */
async function main(): Promise<void> {
  const client = new pg.Client();
  await client.connect();
  try {
    const r = await migrateTeamSchema(client);
    console.log(r.applied.length ? `applied ${r.applied.join(', ')}; the team schema is at version ${r.version}` : `nothing to apply; the team schema is at version ${r.version}`);
  } finally {
    await client.end();
  }
}

main().catch((e: unknown) => {
  console.error(`team:migrate: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
