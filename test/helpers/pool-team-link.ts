import pg from 'pg';
import { currentTeamCursor, pullTeamChanges, type TeamChange, type TeamCursor } from '../../src-main/core/team/change-store';
import { teamErrorOf, type TeamTarget } from '../../src-main/core/team/pg-errors';
import type { TeamLink } from '../../src-main/core/team/team-link';

/**
 * A TeamLink for tests of the modules that use one (marks sync): a pool, and the seat's cursor over
 * the feed moved by `pull()` when the test says so (no listener, no timer), only once every handler
 * has resolved, as the seat runtime does. Online is what the last contact said.
 */
export class PoolTeamLink implements TeamLink {
  private readonly pool: pg.Pool;
  private readonly handlers = new Map<string, Set<(changes: readonly TeamChange[]) => Promise<void>>>();
  private readonly onlineListeners = new Set<(online: boolean) => void>();
  private cursor: TeamCursor | null = null;
  private isOnline = false;

  private readonly target: TeamTarget;

  constructor(
    readonly seatId: string,
    config: pg.PoolConfig,
  ) {
    this.target = { host: String(config.host), port: Number(config.port), database: String(config.database), user: String(config.user) };
    this.pool = new pg.Pool({ ...config, max: 3, connectionTimeoutMillis: 2000 });
    this.pool.on('error', () => undefined); // a stopped server ends idle clients: the next checkout finds out
  }

  /** Where the feed starts for this seat: now (what the test did before is not replayed). */
  async startFeedNow(): Promise<void> {
    this.cursor = await this.withClient((c) => currentTeamCursor(c));
  }

  async withClient<T>(fn: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      this.setOnline(false);
      throw teamErrorOf(e, this.target);
    }
    let broken = false;
    try {
      const out = await fn(client);
      this.setOnline(true);
      return out;
    } catch (e) {
      // As the seat runtime does: the connection kinds of failure (pg-errors.ts) mean the server is out of reach.
      const err = teamErrorOf(e, this.target);
      broken = err.kind === 'offline';
      if (broken) this.setOnline(false);
      throw err;
    } finally {
      client.release(broken);
    }
  }

  onChanges(table: string, handler: (changes: readonly TeamChange[]) => Promise<void>): () => void {
    const set = this.handlers.get(table) ?? new Set();
    set.add(handler);
    this.handlers.set(table, set);
    return () => set.delete(handler);
  }

  online(): boolean {
    return this.isOnline;
  }

  onOnline(listener: (online: boolean) => void): () => void {
    this.onlineListeners.add(listener);
    return () => this.onlineListeners.delete(listener);
  }

  /** One pull of the feed, handed to the handlers table by table; the cursor moves only if all of them resolved. */
  async pull(): Promise<number> {
    const { changes, cursor } = await this.withClient((c) => pullTeamChanges(c, this.cursor ?? '1:1:'));
    const byTable = new Map<string, TeamChange[]>();
    for (const ch of changes) (byTable.get(ch.table) ?? byTable.set(ch.table, []).get(ch.table)!).push(ch);
    for (const [table, list] of byTable) for (const h of this.handlers.get(table) ?? []) await h(list);
    this.cursor = cursor;
    return changes.length;
  }

  async end(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private setOnline(online: boolean): void {
    if (online === this.isOnline) return;
    this.isOnline = online;
    for (const l of this.onlineListeners) l(online);
  }
}
