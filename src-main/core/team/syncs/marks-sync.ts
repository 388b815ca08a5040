import { OutboxSync } from './outbox-sync';
import type { CatalogDb } from '../../catalog/open-catalog';
import { inTransaction } from '../server/pg-transaction';
import type { EventBus } from '../../rpc/event-bus';
import type { TeamChange } from '../server/change-store';
import type { TeamLink } from '../seat/team-link';
import type { SeatScheduler } from '../seat/seat-scheduler';
import { readTeamMarks, readTeamMarksOfClips, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange, type TeamMarks } from '../server/team-marks-store';
import { silentLogger, type Logger } from '../../util/logger';
import { applyTeamMarks } from './apply-team-marks';
import { marksSent, unsentMarks, waitingClipsNowLinked } from '../../marks/marks-outbox-store';
import { knownRangeUuids } from '../../marks/range-store';

/**
 * A joined seat's marks, offline first (docs/notes-team-library.md section 5). Every edit is already
 * in the catalog with its times and listed in its outbox (marks-repository.ts), joined or not; this
 * sends the outbox when the team server is reachable (when the link comes online, soon after each
 * local edit, and every `everyMs`), and merges what the server holds (its answer to a push, and the
 * feed's `ranges`, `keywords` and `clip_marks`) into the catalog by the seat's rule, then tells the
 * views (`catalog.changed`, reason `marks`). Marks of a team clip this seat does not have wait (the
 * catalog lists its team id) and are read again, whole, once the clip is linked here.
 */
export interface TeamMarksSyncOptions {
  /** The open catalog (a restored backup replaces it). */
  db: () => CatalogDb;
  link: TeamLink;
  /** The seat's one clock: this sync's round is registered with it. */
  scheduler: SeatScheduler;
  events: EventBus;
  /** Edits in a burst go together: the wait after an edit before sending. */
  debounceMs?: number;
  /** A round this often whatever happens (clips linked since, edits a failed round left). */
  everyMs?: number;
  logger?: Logger;
}

const MARK_TABLES = ['ranges', 'keywords', 'clip_marks'] as const;

export class TeamMarksSync extends OutboxSync {
  private readonly log: Logger;

  constructor(private readonly o: TeamMarksSyncOptions) {
    super(o.scheduler, { what: 'marks', tables: MARK_TABLES, debounceMs: o.debounceMs, everyMs: o.everyMs });
    this.log = o.logger ?? silentLogger;
  }

  /**
   * Sends the outbox and reads the rows back in the same transaction: the answer carries the
   * server's stamps of the edits it took (the next edit's base) and its value of those it kept.
   */
  protected async push(): Promise<void> {
    const db = this.o.db();
    const out = unsentMarks(db, this.o.link.seatId);
    if (out.receipts.length === 0) return;
    let answer: TeamMarks | null = null;
    if (out.ranges.length + out.keywords.length + out.clipMarks.length > 0) {
      answer = await this.o.link.withClient((c) =>
        inTransaction(c, async () => {
          // ranges before the keywords that name them
          for (const r of out.ranges) await upsertTeamRange(c, r);
          for (const k of out.keywords) await upsertTeamKeyword(c, k);
          for (const m of out.clipMarks) await upsertTeamClipMark(c, m);
          return readTeamMarksOfClips(c, [...new Set([...out.ranges, ...out.keywords, ...out.clipMarks].map((x) => x.clipId))]);
        }),
      );
    }
    marksSent(db, out.receipts);
    if (answer) this.merge(answer, [], out);
    this.log.debug('team.marks.sent', { ranges: out.ranges.length, keywords: out.keywords.length, clipMarks: out.clipMarks.length });
  }

  /** Marks that arrived before their clip was linked here: read whole now that it is. */
  protected async catchUpLinked(): Promise<void> {
    const teamClipIds = waitingClipsNowLinked(this.o.db());
    if (teamClipIds.length === 0) return;
    const marks = await this.o.link.withClient((c) => readTeamMarksOfClips(c, teamClipIds));
    this.merge(marks, teamClipIds);
  }

  /** A pull of the feed named these rows of one marks table: read them, and merge them. */
  protected async apply(table: string, changes: readonly TeamChange[]): Promise<void> {
    const keys = changes.map((c) => c.rowKey);
    const marks = await this.o.link.withClient(async (c) => {
      const read = await readTeamMarks(c, {
        rangeIds: table === 'ranges' ? keys : [],
        keywordIds: table === 'keywords' ? keys.map(Number) : [],
        clipIds: table === 'clip_marks' ? keys.map(Number) : [],
      });
      // A range's keywords can come in a pull before the range does (feed tables are handled one at a time): take the range first.
      const named = [...new Set(read.keywords.map((k) => k.rangeId).filter((id): id is string => id !== null))];
      const known = knownRangeUuids(this.o.db(), named);
      const missing = named.filter((id) => !known.has(id));
      if (missing.length > 0) read.ranges.push(...(await readTeamMarks(c, { rangeIds: missing, keywordIds: [], clipIds: [] })).ranges);
      return read;
    });
    this.merge(marks, []);
  }

  private merge(marks: TeamMarks, caughtUp: readonly number[], sent?: TeamMarks): void {
    const { clipIds, lost } = applyTeamMarks(this.o.db(), this.o.link.seatId, marks, caughtUp, sent);
    // the edit is dropped as it is told, so each is told once
    if (lost.length > 0) this.log.info('team.marks.lost', { why: 'changed on the server after the version this seat edited; the server\'s value stands', lost });
    if (clipIds.length === 0) return;
    this.o.events.emit('catalog.changed', { reason: 'marks', clipIds });
  }
}
