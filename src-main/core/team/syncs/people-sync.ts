import { OutboxSync } from './outbox-sync';
import type { CatalogDb } from '../../catalog/open-catalog';
import type { EventBus } from '../../rpc/event-bus';
import type { TeamChange } from '../server/change-store';
import { inTransaction } from '../server/pg-transaction';
import { readTeamFacts, readTeamFactsOfClips, readTeamPeople, upsertTeamFact, upsertTeamPerson, type TeamPerson } from '../server/team-people-store';
import type { TeamLink } from '../seat/team-link';
import type { SeatScheduler } from '../seat/seat-scheduler';
import { silentLogger, type Logger } from '../../util/logger';
import { applyTeamFacts, applyTeamPeople, unsentPeople } from './apply-team-people';
import { outboxEntries, outboxSent, waitingClipsNowLinked } from '../../people/people-outbox-store';
import type { PeopleService } from '../../people/people-service';

/**
 * A joined seat's people, offline first (issue 39 part 5; docs/notes-team-library.md). What a team
 * shares of people is the editors' naming, never a face: every name, hidden flag, merge, forget and
 * fact about a face's place is already in the catalog and listed in its outbox (people-store.ts,
 * people-facts-store.ts), joined or not; this sends the outbox when the server is reachable, and
 * applies what other seats changed (the feed's `people` and `people_facts`): facts stored with their
 * seat and the faces of their clips matched again at once (so a name given on another seat shows on
 * this seat's faces at those places), names and hidden flags by the team's rule over the version
 * held (server stamps; an edit that lost is dropped and logged once), merges and
 * forgets through the people service (a forget takes this seat's embeddings of the person too). Facts
 * of a team clip not linked here wait (people_waiting) and are read whole once it is.
 */
export interface TeamPeopleSyncOptions {
  /** The open catalog (a restored backup replaces it). */
  db: () => CatalogDb;
  link: TeamLink;
  /** The seat's one clock: this sync's round is registered with it. */
  scheduler: SeatScheduler;
  service: () => PeopleService;
  events: EventBus;
  debounceMs?: number;
  everyMs?: number;
  now?: () => number;
  logger?: Logger;
}

export class TeamPeopleSync extends OutboxSync {
  private readonly log: Logger;
  private readonly now: () => number;

  constructor(private readonly o: TeamPeopleSyncOptions) {
    super(o.scheduler, { what: 'people', tables: ['people', 'people_facts'], debounceMs: o.debounceMs, everyMs: o.everyMs });
    this.log = o.logger ?? silentLogger;
    this.now = o.now ?? Date.now;
  }

  /**
   * Sends the outbox and reads the people back in the same transaction: the answer carries the
   * server's stamps of the changes it took (the next change's base) and its values of those it kept.
   */
  protected async push(): Promise<void> {
    const db = this.o.db();
    const entries = outboxEntries(db);
    if (entries.length === 0) return;
    const out = unsentPeople(db, this.o.link.seatId, entries);
    let answer: TeamPerson[] = [];
    if (out.people.length + out.facts.length > 0) {
      answer = await this.o.link.withClient((c) =>
        inTransaction(c, async () => {
          // people first: a fact about a person forgotten in the same round is then not written
          for (const p of out.people) await upsertTeamPerson(c, p);
          for (const f of out.facts) await upsertTeamFact(c, f);
          return readTeamPeople(c, out.people.map((p) => p.uuid));
        }),
      );
    }
    outboxSent(db, out.sent);
    this.take(answer, out.people);
    this.log.debug('team.people.sent', { people: out.people.length, facts: out.facts.length });
  }

  /** Facts that arrived before their clip was linked here: read whole now that it is. */
  protected async catchUpLinked(): Promise<void> {
    const teamClipIds = waitingClipsNowLinked(this.o.db());
    if (teamClipIds.length === 0) return;
    const facts = await this.o.link.withClient((c) => readTeamFactsOfClips(c, teamClipIds));
    this.reattach(applyTeamFacts(this.o.db(), this.o.link.seatId, facts, teamClipIds));
  }

  protected apply(table: string, changes: readonly TeamChange[]): Promise<void> {
    return table === 'people' ? this.applyPeople(changes) : this.applyFacts(changes);
  }

  private async applyPeople(changes: readonly TeamChange[]): Promise<void> {
    this.take(await this.o.link.withClient((c) => readTeamPeople(c, changes.map((x) => x.rowKey))), []);
  }

  private take(read: readonly TeamPerson[], sent: readonly TeamPerson[]): void {
    if (read.length === 0) return;
    const { changed, lost } = applyTeamPeople(this.o.db(), this.o.service(), this.o.link.seatId, read, this.now(), sent);
    // the edit is dropped as it is told, so each is told once
    if (lost.length > 0) this.log.info('team.people.lost', { why: "changed on the server after the version this seat edited; the server's value stands", lost });
    if (!changed) return;
    this.o.events.emit('catalog.changed', { reason: 'people' });
    // a name met here under another uuid was merged here: that merge is this seat's to send
    this.edited();
  }

  private async applyFacts(changes: readonly TeamChange[]): Promise<void> {
    const read = await this.o.link.withClient((c) => readTeamFacts(c, changes.map((x) => Number(x.rowKey))));
    this.reattach(applyTeamFacts(this.o.db(), this.o.link.seatId, read, []));
  }

  /** The faces of clips whose facts changed are matched again, as after an analysis (the service tells the views). */
  private reattach(clipIds: readonly number[]): void {
    for (const clipId of clipIds) this.o.service().clipAnalysed(clipId);
  }
}
