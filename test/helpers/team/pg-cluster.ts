import { describe } from 'vitest';
import { PG_BIN, PG_MISSING } from './pg-server';

/**
 * The team library's tests: a throwaway PostgreSQL cluster (pg-server.ts, which benchmarks import
 * outside vitest, where importing vitest fails) and the describe block that skips without one.
 */
export * from './pg-server';

/** A describe block that needs PostgreSQL: skipped, saying why in its name, on a machine without it. */
export function describeWithPostgres(name: string, body: () => void): void {
  if (!PG_BIN) console.warn(`${name}: ${PG_MISSING}`);
  describe.skipIf(!PG_BIN)(PG_BIN ? name : `${name} (${PG_MISSING})`, body);
}

/** A test's teardown: its clients closed (those it opened: a failed set-up leaves some undefined), then its cluster. */
export async function closePg(clients: ReadonlyArray<{ end(): Promise<void> } | undefined>, cluster: { stop(): Promise<void> } | undefined): Promise<void> {
  for (const c of clients) await c?.end().catch(() => undefined);
  await cluster?.stop();
}
