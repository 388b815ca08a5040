import fsp from 'node:fs/promises';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import { candidateLocations, learnRootMap, rootKeyOf, type RootRule } from '../rules/root-map';
import { sharedPathProblem } from '../rules/shared-path';
import { locationPairs, publishedTeamClips, publishedUrlClips, type PublishedTeamClip, type PublishedUrlClip } from '../server/team-clip-store';
import type { SeatRound, SeatScheduler } from '../seat/seat-scheduler';
import type { TeamLink } from '../seat/team-link';
import { localClipOfTeamClip } from '../team-replica-store';
import { silentLogger, type Logger } from '../../util/logger';
import { openVerified } from '../../util/open-verified';
import { joinOnVolume } from '../../library/clip-paths';
import { fingerprintOf } from '../../library/fingerprint';
import { clipsWithContent } from '../../library/clip-place-store';
import { pathOf } from '../../library/clip-store';
import { nameFromUrl, URL_PROFILE_ID } from '../../library/remote-clips';
import type { TeamShareEntry } from '../../library/team-share-entries';
import { connectedDrives } from '../../library/volume-store';

/**
 * Other seats' clips arriving in this seat's catalog (issue 28, "each workstation keeps its local
 * catalog as a replica of the team library"): a clip another seat indexed is looked for on this
 * seat's drives, through the share roots learned from the clips both seats have (team/rules/root-map.ts),
 * and, when its file is here, imported as a drop of it would be. The import is the one way a clip
 * enters a catalog: the clip is probed and its poster made here (seconds), then its analysis finds
 * the team's results and copies them (syncs/clip-sharing.ts): nothing is decoded, uploaded or
 * billed again. A clip whose file this seat cannot reach (a share it has not mounted, or mounted at a
 * root it has no clip of yet, or a place refused) is listed as an offline entry (team-share-entries.ts),
 * counted for Settings and looked for again later: found, its import moves the entry onto the file.
 * A clip another seat added by URL has no file to look for: it is listed at its address, as this
 * seat's own URL clips are (`placeUrl`), with the team's results of the service's reading of it.
 */

export interface TeamClipArrivalsOptions {
  db: CatalogDb;
  link: TeamLink;
  /** The seat's one clock: the look for the clips not found here is a round of it. */
  scheduler: SeatScheduler;
  profileId: string;
  /** The library's import (library/library-handlers.ts importPaths). */
  importFiles: (paths: string[]) => Promise<unknown>;
  /**
   * A clip not found here listed as an offline entry with the team's results (team/syncs/clip-sharing.ts
   * `placeAway`); its id, or null when the team has no results of it for this seat's profile.
   */
  placeAway: (teamClipId: number, entry: Omit<TeamShareEntry, 'durationS'>) => Promise<number | null>;
  /** A clip another seat added by URL listed here at its address (team/syncs/clip-sharing.ts `placeUrlClip`). */
  placeUrl: (teamClipId: number, clip: PublishedUrlClip & { name: string }) => Promise<number | null>;
  /** Clips not found here are looked for again this often (a share mounted meanwhile, a root learned). */
  retryEveryMs?: number;
  logger?: Logger;
}

/** The team's clips this seat has not found on its drives. */
export interface ClipsNotHere {
  clips: number;
  /** The shares they are on, as the seats that have them name them (at most five). */
  shares: string[];
}

const PAGE = 500;
/** Learned from the most recent clips this seat saw that others saw too. */
const PAIRS = 5000;

export class TeamClipArrivals {
  private readonly notHere = new Map<number, PublishedTeamClip>();
  /** `teamClipId:reason` of the refusals logged (sayRefused). */
  private readonly refusalsSaid = new Set<string>();
  /**
   * The share roots learned, kept between the feed's batches (one clip published each): learned again
   * when this seat links a clip, when it comes online and at each look for the clips not found.
   */
  private rules: RootRule[] | null = null;
  private readonly unsubscribe: Array<() => void> = [];
  /** The look again for the clips not found here: every `retryEveryMs`, and soon after a clip is linked. */
  private readonly lookAgainRound: SeatRound;
  private work: Promise<void> = Promise.resolve();
  private readonly log: Logger;
  private stopped = false;

  constructor(private readonly o: TeamClipArrivalsOptions) {
    this.log = o.logger ?? silentLogger;
    this.lookAgainRound = o.scheduler.register({
      what: 'arrivals',
      run: async () => {
        if (this.notHere.size > 0) this.then(() => this.lookAgain());
        await this.work;
      },
      everyMs: o.retryEveryMs,
      // An import links clips one by one: one look after the burst.
      debounceMs: 1000,
    });
  }

  start(): void {
    this.unsubscribe.push(
      // The feed's "results complete" row of a clip: looked for at once. The handler only queues the
      // look, so a long import never holds the seat's cursor.
      this.o.link.onChanges('clip_results', async (changes) => {
        const ids = changes.map((c) => Number(c.rowKey)).filter((id) => localClipOfTeamClip(this.o.db, id) === null);
        if (ids.length > 0) this.then(() => this.look({ ids }));
      }),
      // Back in touch (and at start): the whole library, for what arrived while away.
      this.o.link.onOnline((online) => {
        if (online) this.then(() => this.lookAll());
      }),
    );
    if (this.o.link.online()) this.then(() => this.lookAll());
    this.lookAgainRound.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    await this.lookAgainRound.stop();
    await this.work;
  }

  /**
   * This seat linked a clip of its own to the team: a root it had no clip of may be known now, so
   * the clips not found are looked for again soon.
   */
  linked(): void {
    this.rules = null;
    if (this.notHere.size > 0) this.lookAgainRound.soon();
  }

  notFound(): ClipsNotHere {
    const shares = new Set<string>();
    for (const c of this.notHere.values()) for (const l of c.locations) if (shares.size < 5) shares.add(l.rootKey);
    return { clips: this.notHere.size, shares: [...shares] };
  }

  /**
   * Each refusal is logged once per clip and reason, not at every look: the clip stays among those
   * not found here (Settings counts them), and the log says why a file that is there was not taken.
   */
  private sayRefused(clip: PublishedTeamClip, refused: ClipHere['refused']): void {
    for (const r of refused) {
      const key = `${clip.id}:${r.reason}`;
      if (this.refusalsSaid.has(key)) continue;
      this.refusalsSaid.add(key);
      this.log.warn('team.arrivals.refused', { teamClipId: clip.id, reason: r.reason, place: r.place.slice(0, 300) });
    }
  }

  private then(f: () => Promise<void>): void {
    this.work = this.work.then(() => (this.stopped ? undefined : f())).catch((e) => this.log.debug('team.arrivals.deferred', { message: toAppError(e).message }));
  }

  private async lookAll(): Promise<void> {
    this.rules = null;
    for (let after = 0; !this.stopped; ) {
      const page = await this.o.link.withClient((c) => publishedTeamClips(c, { profileId: this.o.profileId, afterId: after, limit: PAGE }));
      await this.arrive(page);
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
    for (let after = 0; !this.stopped; ) {
      const page = await this.o.link.withClient((c) => publishedUrlClips(c, { profileId: URL_PROFILE_ID, afterId: after, limit: PAGE }));
      await this.arriveAtAddresses(page);
      if (page.lastId === null || page.clips.length + page.refused.length < PAGE) return;
      after = page.lastId;
    }
  }

  private async look(q: { ids: number[] }): Promise<void> {
    await this.arrive(await this.o.link.withClient((c) => publishedTeamClips(c, { profileId: this.o.profileId, ids: q.ids, limit: q.ids.length })));
    await this.arriveAtAddresses(await this.o.link.withClient((c) => publishedUrlClips(c, { profileId: URL_PROFILE_ID, ids: q.ids, limit: q.ids.length })));
  }

  /**
   * Clips other seats added by URL, not in this catalog yet, listed at their addresses. A row whose
   * address the rules refuse (team/rules/source-url.ts; written by hand before team migration 0013)
   * is not catalogued, and said once.
   */
  private async arriveAtAddresses(page: Awaited<ReturnType<typeof publishedUrlClips>>): Promise<void> {
    for (const id of page.refused) {
      if (this.refusalsSaid.has(`${id}:unsafe_url`)) continue;
      this.refusalsSaid.add(`${id}:unsafe_url`);
      this.log.warn('team.arrivals.refused', { teamClipId: id, reason: 'unsafe_url' });
    }
    for (const clip of page.clips) {
      if (this.stopped) return;
      if (localClipOfTeamClip(this.o.db, clip.id) === null) await this.o.placeUrl(clip.id, { ...clip, name: urlClipName(clip) });
    }
  }

  private async lookAgain(): Promise<void> {
    this.rules = null;
    const ids = [...this.notHere.keys()];
    for (let i = 0; i < ids.length; i += PAGE) await this.look({ ids: ids.slice(i, i + PAGE) });
  }

  /**
   * Each clip not in this catalog, or here only as an offline entry, is imported from where it is on
   * this seat's drives; not found, it is noted as not here and listed as an offline entry.
   */
  private async arrive(clips: readonly PublishedTeamClip[]): Promise<void> {
    const listed = new Set<number>();
    const missing = clips.filter((c) => {
      const local = localClipOfTeamClip(this.o.db, c.id);
      const entry = local !== null && pathOf(this.o.db, local)?.teamShare === true;
      if (entry) listed.add(c.id);
      const here = (local !== null && !entry) || (local === null && clipsWithContent(this.o.db, c.fingerprint, c.sizeBytes).some((k) => !k.teamShare));
      if (here) this.notHere.delete(c.id);
      return !here;
    });
    if (missing.length === 0) return;
    this.rules ??= learnRootMap(await this.o.link.withClient((c) => locationPairs(c, this.o.link.seatId, PAIRS)));
    const rules = this.rules;
    const drives = connectedDrives(this.o.db).map((d) => ({ ...d, rootKey: rootKeyOf(d) }));
    const found: Array<{ clip: PublishedTeamClip; file: string }> = [];
    for (const clip of missing) {
      const { file, refused } = await fileHere(clip, rules, drives);
      this.sayRefused(clip, refused);
      if (file) {
        found.push({ clip, file });
        this.notHere.delete(clip.id);
      } else {
        this.notHere.set(clip.id, clip);
        if (!listed.has(clip.id)) await this.o.placeAway(clip.id, entryOf(clip));
      }
    }
    if (found.length === 0) return;
    this.log.info('team.arrivals.import', { clips: found.length, notHere: this.notHere.size });
    try {
      await this.o.importFiles(found.map((f) => f.file));
    } catch (e) {
      // Refused (a full disk): looked for again with the clips not found, not forgotten until the next start.
      for (const f of found) this.notHere.set(f.clip.id, f.clip);
      throw e;
    }
  }
}

/**
 * Where an offline entry says the clip is: the latest place a seat recorded that is a plain path down
 * its share (a refused one is not shown as a path), else the clip's name on that share.
 */
export function entryOf(clip: PublishedTeamClip): Omit<TeamShareEntry, 'durationS'> {
  const safe = clip.locations.find((l) => sharedPathProblem(l.relPath) === null);
  const name = sharedPathProblem(clip.fileName) === null && !clip.fileName.includes('/') ? clip.fileName : `team clip ${clip.id}`;
  return {
    rootKey: safe?.rootKey ?? clip.locations[0]?.rootKey ?? 'team',
    relPath: safe?.relPath ?? name,
    fileName: safe?.relPath.split('/').pop() ?? name,
    sizeBytes: clip.sizeBytes,
    fingerprint: clip.fingerprint,
  };
}

/** The name a clip added by URL is listed under: the one it was added with, unless it is not a plain file name (then the address's). */
export function urlClipName(clip: PublishedUrlClip): string {
  return clip.fileName !== '' && !clip.fileName.includes('/') && sharedPathProblem(clip.fileName) === null ? clip.fileName : nameFromUrl(clip.sourceUrl);
}

/** Why something at a place a seat was pointed to was not taken as the team's clip. */
export type RefusedPlace = 'unsafe_path' | 'outside_share' | 'not_a_file' | 'other_content' | 'unreadable';

/** Where the clip is on this seat, if anywhere, and what was found at the places refused. */
export interface ClipHere {
  file: string | null;
  refused: Array<{ place: string; reason: RefusedPlace }>;
}

/**
 * Where the clip's file is on this seat: on a drive the rules give, at the path they give, with the
 * clip's content. The place comes from another seat's row (issue 40 item 2: confined twice), so a
 * place that is not a plain path down the share is not joined at all; what the place leads to, links
 * followed, must lie inside the drive's real root, be a regular file (checked on the opened
 * descriptor, util/open-verified.ts) and have the clip's fingerprint, read from that descriptor: a
 * folder, a file reached through a link out of the share or a file of the same size with other
 * content is not the team's clip, whatever is at the other end. A place with nothing at it is no
 * refusal: the clip is just not there.
 */
export async function fileHere(
  clip: PublishedTeamClip,
  rules: readonly RootRule[],
  drives: readonly { mountPath: string; rootKey: string }[],
): Promise<ClipHere> {
  const refused: ClipHere['refused'] = [];
  for (const at of clip.locations) {
    // Checked before the rules rewrite it: a row written by hand or before team migration 0007.
    if (sharedPathProblem(at.relPath)) {
      refused.push({ place: at.relPath, reason: 'unsafe_path' });
      continue;
    }
    for (const here of candidateLocations(at, rules)) {
      // A rule's prefix comes from rows too.
      if (sharedPathProblem(here.relPath)) {
        refused.push({ place: here.relPath, reason: 'unsafe_path' });
        continue;
      }
      for (const d of drives) {
        if (d.rootKey !== here.rootKey) continue;
        const file = joinOnVolume(d.mountPath, here.relPath);
        const found = await clipAt(file, d.mountPath, clip);
        // The path as the drive names it (the import places a clip on its drive by it; it reads and
        // fingerprints the file again itself, and serving checks it against that).
        if (found === 'clip') return { file, refused };
        if (found !== 'nothing') refused.push({ place: file, reason: found });
      }
    }
  }
  return { file: null, refused };
}

/** Whether `file` is the clip, inside `root` once every link is followed. */
async function clipAt(file: string, root: string, clip: PublishedTeamClip): Promise<'clip' | 'nothing' | RefusedPlace> {
  // openVerified follows the links and keeps the file inside `root`; what it opened is what is read.
  const opened = await openVerified(file, { within: root });
  if (opened instanceof AppError) {
    if (opened.kind === 'invalid') return 'not_a_file';
    if (opened.kind !== 'not_found') return 'unreadable';
    // not_found is also its word for a place that leads out of `root`: only then is something there.
    return (await fsp.realpath(file).catch(() => null)) === null ? 'nothing' : 'outside_share';
  }
  try {
    if (opened.identity.size !== clip.sizeBytes) return 'other_content';
    return (await fingerprintOf(opened.handle, opened.identity.size)) === clip.fingerprint ? 'clip' : 'other_content';
  } catch {
    return 'unreadable';
  } finally {
    await opened.handle.close();
  }
}
