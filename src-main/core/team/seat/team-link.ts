import type { ClientBase } from 'pg';
import type { TeamChange } from '../server/change-store';

/**
 * What the modules of a joined seat (clip work sharing, marks) use of its link to the team server.
 * One implementation, the seat runtime (team-seat.ts): a small pool, the change listener and the
 * seat's cursor over the feed. Modules register per table and never see the cursor or the listener.
 */
export interface TeamLink {
  readonly seatId: string;
  /**
   * One pooled connection for `fn`. An unreachable server, a refused password and the like reject
   * with an AppError of a kind (pg-errors.ts), and mark the link offline.
   */
  withClient<T>(fn: (client: ClientBase) => Promise<T>): Promise<T>;
  /**
   * The changes of one table found by each pull of the feed (wake-ups by NOTIFY, on (re)connect and
   * every 30 s). Handlers run one at a time; the seat's cursor moves past a pull only once every
   * handler has resolved, so a handler that throws sees the same changes again at the next pull.
   */
  onChanges(table: string, handler: (changes: readonly TeamChange[]) => Promise<void>): () => void;
  /** Whether the last contact with the server succeeded. */
  online(): boolean;
  /** Told each time the server becomes reachable (true) or unreachable (false). */
  onOnline(listener: (online: boolean) => void): () => void;
}
