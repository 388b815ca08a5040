import pg from 'pg';
import { addSeatLogin, removeSeatLogin } from '../src-main/core/team/server/seat-login-store';

/**
 * A team's seats, added and removed by its administrator (README, "Team library"). Connects the way
 * team:migrate does (the libpq environment: PGHOST, PGPORT, PGDATABASE, PGUSER...), as a role that
 * may create roles and SET ROLE reelscout_owner (a superuser): never a seat's login.
 *   npm run team:seat -- add NAME [--seat UUID]   a LOGIN role for the seat; prints its one-time password
 *   npm run team:seat -- remove NAME              returns its leases to the queue and drops the role
 */
const USAGE = 'usage: npm run team:seat -- add NAME [--seat UUID] | remove NAME';

async function main(argv: readonly string[]): Promise<void> {
  const [command, name, flag, seatId] = argv;
  if ((command !== 'add' && command !== 'remove') || !name || (flag !== undefined && (command !== 'add' || flag !== '--seat' || !seatId))) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const client = new pg.Client();
  await client.connect();
  try {
    if (command === 'add') {
      const added = await addSeatLogin(client, { name, seatId });
      // The password goes to this terminal only, once: the server holds its SCRAM verifier.
      process.stdout.write(`seat ${added.role} added. Its password (shown once; the editor types it in Settings, "Team library", with user ${added.role}):\n${added.password}\n`);
    } else {
      const r = await removeSeatLogin(client, name);
      console.log(`seat ${name} removed: ${r.jobsReleased} job lease(s) and ${r.uploadsReleased} upload claim(s) back in the queue`);
    }
  } finally {
    await client.end();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`team:seat: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
