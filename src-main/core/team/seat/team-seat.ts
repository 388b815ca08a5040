import pg from 'pg';
import type { TeamCheckResult, TeamConnectionSettings } from '../../../../src-shared/contract/team';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import { silentLogger, type Logger } from '../../util/logger';
import { TeamChangeListener } from './change-listener';
import { pruneTeamFeed, pullTeamChanges, type TeamChange, type TeamCursor } from '../server/change-store';
import { teamClientConfig } from './connection-settings';
import { schemaMismatch, serverSchemaVersion } from '../server/migration-store';
import { teamErrorOf } from '../server/pg-errors';
import { joinSeat, reportFeedRead } from '../server/seat-store';
import type { TeamLink } from './team-link';
import { SeatScheduler, type SeatRound } from './seat-scheduler';
import { readTeamState, writeTeamState } from '../team-replica-store';

/**
 * A joined seat's live link to the team server (TeamLink): a small pool for the modules' reads and
 * writes, one connection in LISTEN, the seat's one clock (`scheduler`, which the syncs' rounds share),
 * and the seat's copy of the feed, a round on that clock: each wake-up (NOTIFY, every (re)connect,
 * 50 ms after, so a burst makes one pull) and every `pullEveryMs` whatever happens, online or not, it pulls the changes since the seat's cursor,
 * hands them to the modules per table, and only then stores the new cursor in the local catalog, so
 * a change a module failed to apply (the server went away half-way) comes again. Then it tells the
 * server how far it has read, and now and then prunes the feed below what every active seat has read.
 */

/** A cursor that has seen nothing: a seat's first pull takes the whole feed, or the tables whole once the feed has been pruned. */
const FROM_THE_START: TeamCursor = '1:1:';

/**
 * How often a seat's pull also prunes the feed. A prune is one indexed DELETE, but every seat pulls
 * every 30 s, and the feed grows by a row per clip or mark, not per segment: pruned every ten minutes
 * it keeps about ten minutes of the team's work beyond what every seat has read.
 */
const PRUNE_EVERY_MS = 10 * 60_000;

export interface TeamSeatOptions {
  settings: TeamConnectionSettings;
  password: string;
  seatId: string;
  /** The seat's catalog: where its cursor is kept. */
  db: CatalogDb;
  logger?: Logger;
  /** A pull this often even without a wake-up (notifications are never trusted for completeness). */
  pullEveryMs?: number;
  /** A pull also prunes the feed when this long has passed since this seat last did (default ten minutes, from the first pull on; 0: every pull; infinity: never). */
  pruneEveryMs?: number;
  /** Connections of the pool (the listener's is apart). */
  poolSize?: number;
  /** The schema version the app's migrations reach: the seat works only with a server at it. */
  appSchemaVersion: number;
  /** A seat held by its server (another schema version, a refused password) tries again after this long (default 60 s). */
  recheckMs?: number;
  /**
   * Told what the server answered each time the seat's link checks it (its schema at each
   * (re)connection, a refused password): Settings' "Last check" shows the latest, the editor's own or this.
   */
  onChecked?: (check: TeamCheckResult) => void;
}

/** A server answering with one of these will not do better at once: the seat is held, not merely offline. */
const HOLDING_KINDS = new Set(['auth', 'invalid']);

type Handler = (changes: readonly TeamChange[]) => Promise<void>;

export class TeamSeat implements TeamLink {
  readonly seatId: string;
  private readonly pool: pg.Pool;
  private readonly listener: TeamChangeListener;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly onlineListeners = new Set<(online: boolean) => void>();
  private readonly log: Logger;
  private readonly cursorName: string;
  private isOnline = false;
  /** The server's schema was compared with the app's since the seat last came online. */
  private schemaChecked = false;
  private held: { kind: 'auth' | 'invalid'; message: string; until: number } | null = null;
  /** The seat's one clock: the syncs register their rounds on it, and the pull of the feed is one. */
  readonly scheduler: SeatScheduler;
  private readonly pullRound: SeatRound;
  private stopped = false;
  private prunedAt = 0;

  constructor(private readonly o: TeamSeatOptions) {
    this.seatId = o.seatId;
    this.log = o.logger ?? silentLogger;
    // The seat is its login role (team migration 0011): the connection names no seat of its own.
    const config = teamClientConfig(o.settings, o.password);
    this.cursorName = `cursor:${o.settings.host}:${o.settings.port}/${o.settings.database}`;
    this.pool = new pg.Pool({ ...config, max: o.poolSize ?? 4, idleTimeoutMillis: 30_000 });
    // An idle client losing its server reports here; the next checkout finds out and says so.
    this.pool.on('error', (e) => this.log.debug('team.pool.error', { message: e.message }));
    this.scheduler = new SeatScheduler({ link: this, log: this.log });
    // The pull runs offline too: it is what finds the server again when the listener's connection
    // stayed up but the pool's did not (the listener's reconnect wakes it as well). A failed pull is
    // logged here and ends only that pull: one asked for meanwhile still runs after it.
    const pull = () => this.pullOnce().catch((e) => this.log.warn('team.pull.failed', { kind: toAppError(e).kind, message: toAppError(e).message }));
    this.pullRound = this.scheduler.register({ what: 'pull', run: pull, everyMs: o.pullEveryMs ?? 30_000, debounceMs: 50, evenOffline: true });
    this.listener = new TeamChangeListener({
      newClient: () => new pg.Client(config),
      onWake: () => this.wake(),
      onDisconnect: () => this.setOnline(false),
      log: this.log,
    });
  }

  start(): void {
    this.stopped = false;
    this.listener.start();
    this.pullRound.start();
    void this.withClient((c) => joinSeat(c, { seatId: this.seatId, name: this.o.settings.seatName, roots: [] })).catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Off the clock first (waits for a pull running), then the listener that wakes it.
    await this.pullRound.stop();
    await this.listener.stop();
    await this.pool.end().catch(() => undefined);
  }

  online(): boolean {
    return this.isOnline;
  }

  onOnline(listener: (online: boolean) => void): () => void {
    this.onlineListeners.add(listener);
    return () => this.onlineListeners.delete(listener);
  }

  onChanges(table: string, handler: Handler): () => void {
    const set = this.handlers.get(table) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(table, set);
    this.wake();
    return () => set.delete(handler);
  }

  /** Why the server answers but the seat must not work with it (schema version, password); null otherwise. */
  heldBecause(): string | null {
    return this.held?.message ?? null;
  }

  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.held && Date.now() < this.held.until) throw new AppError(this.held.kind, this.held.message);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      this.setOnline(false);
      throw this.holdIf(teamErrorOf(e, this.o.settings));
    }
    if (!this.schemaChecked) {
      // Before anything is read or written, at each (re)connection: an app must not share rows with
      // a schema it was not written for (the server may have been migrated while this seat was away).
      try {
        const server = await serverSchemaVersion(client);
        const mismatch = schemaMismatch(server, this.o.appSchemaVersion);
        if (mismatch) throw new AppError('invalid', mismatch);
        this.schemaChecked = true;
        this.held = null;
        this.o.onChecked?.({ ok: true, at: new Date().toISOString(), schemaVersion: server, error: null });
      } catch (e) {
        client.release();
        this.setOnline(false);
        throw this.holdIf(teamErrorOf(e, this.o.settings));
      }
    }
    // A checked-out client has no pool listener: a server going away mid-query (57P01) would be an
    // unhandled 'error' event. The query's own rejection carries it to the caller.
    const onError = (e: Error) => this.log.debug('team.client.error', { message: e.message });
    client.on('error', onError);
    let broken = false;
    try {
      const out = await fn(client);
      this.setOnline(true);
      return out;
    } catch (e) {
      const err = teamErrorOf(e, this.o.settings);
      if (err.kind === 'offline') {
        broken = true;
        this.setOnline(false);
      }
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  /** Pulls soon: wake-ups arriving together (a burst of NOTIFYs) make one pull, and one during a pull makes one more after it (the scheduler's round). */
  private wake(): void {
    if (!this.stopped) this.pullRound.soon();
  }

  private async pullOnce(): Promise<void> {
    if (this.stopped || this.handlers.size === 0) return;
    const since = readTeamState(this.o.db, this.cursorName) ?? FROM_THE_START;
    const { changes, cursor, snapshot } = await this.withClient((c) => pullTeamChanges(c, since, undefined, [...this.handlers.keys()]));
    if (snapshot) this.log.info('team.pull.snapshot', { rows: changes.length });
    const byTable = new Map<string, TeamChange[]>();
    for (const ch of changes) {
      const list = byTable.get(ch.table) ?? [];
      list.push(ch);
      byTable.set(ch.table, list);
    }
    for (const [table, list] of byTable) {
      for (const h of this.handlers.get(table) ?? []) await h(list);
    }
    if (this.stopped) return;
    writeTeamState(this.o.db, this.cursorName, cursor);
    const prune = Date.now() - this.prunedAt >= (this.o.pruneEveryMs ?? PRUNE_EVERY_MS);
    // What the seat has applied, never more: reported only once the cursor is stored here.
    await this.withClient(async (c) => {
      await reportFeedRead(c, this.seatId, cursor);
      if (prune) {
        this.prunedAt = Date.now();
        const pruned = await pruneTeamFeed(c);
        if (pruned > 0) this.log.info('team.feed.pruned', { rows: pruned });
      }
    });
  }

  /** An answer the server will give again at once holds the seat until the next look (`recheckMs`). */
  private holdIf(err: AppError): AppError {
    if (HOLDING_KINDS.has(err.kind)) {
      this.held = { kind: err.kind as 'auth' | 'invalid', message: err.message, until: Date.now() + (this.o.recheckMs ?? 60_000) };
      this.log.warn('team.seat.held', { kind: err.kind, message: err.message });
      this.o.onChecked?.({ ok: false, at: new Date().toISOString(), schemaVersion: null, error: err.toJSON() });
    }
    return err;
  }

  private setOnline(online: boolean): void {
    if (!online) this.schemaChecked = false;
    if (online === this.isOnline) return;
    this.isOnline = online;
    this.log.info(online ? 'team.online' : 'team.offline');
    for (const l of this.onlineListeners) {
      try {
        l(online);
      } catch (e) {
        this.log.warn('team.listener.failed', { message: (e as Error).message });
      }
    }
    if (online) this.wake();
  }
}
