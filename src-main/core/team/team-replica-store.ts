import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/**
 * The one owner of the seat's replica bookkeeping in its SQLite catalog (migration 0046):
 * `team_clips` (which team clip each local clip is, and whose results it holds) and `team_state`
 * (the feed cursor). Solo catalogs leave both empty.
 */

export interface TeamClipLink {
  clipId: number;
  teamClipId: number;
  /** The seat whose published results this clip holds; null: this seat's own work. */
  resultsFrom: string | null;
  /** When this seat's own results went to the team; null: not yet (offline, or not indexed). */
  publishedAt: number | null;
}

interface LinkRow {
  clip_id: number;
  team_clip_id: number;
  results_from: string | null;
  published_at: number | null;
}

const toLink = (r: LinkRow): TeamClipLink => ({ clipId: r.clip_id, teamClipId: r.team_clip_id, resultsFrom: r.results_from, publishedAt: r.published_at });

export function teamLinkOf(db: CatalogDb, clipId: number): TeamClipLink | null {
  const r = statement(db, 'SELECT clip_id, team_clip_id, results_from, published_at FROM team_clips WHERE clip_id = ?').get(clipId) as LinkRow | undefined;
  return r ? toLink(r) : null;
}

export function localClipOfTeamClip(db: CatalogDb, teamClipId: number): number | null {
  const r = statement(db, 'SELECT clip_id FROM team_clips WHERE team_clip_id = ?').get(teamClipId) as { clip_id: number } | undefined;
  return r?.clip_id ?? null;
}

/** The local clip is the team's clip `teamClipId` (found or made by fingerprint). */
export function linkTeamClip(db: CatalogDb, clipId: number, teamClipId: number, now: number = Date.now()): void {
  statement(
    db,
    `INSERT INTO team_clips (clip_id, team_clip_id, linked_at) VALUES (?, ?, ?)
     ON CONFLICT (clip_id) DO UPDATE SET team_clip_id = excluded.team_clip_id,
       results_from = CASE WHEN team_clips.team_clip_id = excluded.team_clip_id THEN team_clips.results_from END,
       published_at = CASE WHEN team_clips.team_clip_id = excluded.team_clip_id THEN team_clips.published_at END`,
  ).run(clipId, teamClipId, now);
}

/** The clip's shots and segments are now `seatId`'s published results (not this seat's own work). */
export function noteResultsFrom(db: CatalogDb, clipId: number, seatId: string): void {
  statement(db, 'UPDATE team_clips SET results_from = ?, published_at = NULL WHERE clip_id = ?').run(seatId, clipId);
}

/** This seat's own results of the clip reached the team (or the team had them already). */
export function notePublished(db: CatalogDb, clipId: number, now: number = Date.now()): void {
  statement(db, 'UPDATE team_clips SET published_at = ?, results_from = NULL WHERE clip_id = ?').run(now, clipId);
}

/** Local clips not linked to the team yet (imported before joining, or while the server was away). */
export function unlinkedClipIds(db: CatalogDb, limit: number): number[] {
  return statement(db, "SELECT id FROM clips WHERE fingerprint IS NOT NULL AND source_url IS NULL AND id NOT IN (SELECT clip_id FROM team_clips) ORDER BY id LIMIT ?")
    .pluck()
    .all(limit) as number[];
}

/** Clips added by URL (Add by URL, here) and indexed, not linked to the team yet. */
export function unlinkedUrlClipIds(db: CatalogDb, limit: number): number[] {
  return statement(db, 'SELECT id FROM clips WHERE source_url IS NOT NULL AND indexed_at IS NOT NULL AND id NOT IN (SELECT clip_id FROM team_clips) ORDER BY id LIMIT ?')
    .pluck()
    .all(limit) as number[];
}

/** Linked clips indexed by this seat itself whose results have not gone to the team. */
export function unpublishedClipIds(db: CatalogDb, profileId: string, limit: number): number[] {
  return statement(
    db,
    `SELECT t.clip_id FROM team_clips t JOIN clips c ON c.id = t.clip_id
      WHERE t.results_from IS NULL AND t.published_at IS NULL AND c.indexed_at IS NOT NULL AND c.indexed_profile = ?
      ORDER BY t.clip_id LIMIT ?`,
  )
    .pluck()
    .all(profileId, limit) as number[];
}

export function readTeamState(db: CatalogDb, name: string): string | null {
  const r = statement(db, 'SELECT value FROM team_state WHERE name = ?').get(name) as { value: string } | undefined;
  return r?.value ?? null;
}

export function writeTeamState(db: CatalogDb, name: string, value: string): void {
  statement(db, 'INSERT INTO team_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
}

/** Whether the local clip is indexed with the profile (its results complete here, whoever made them). */
export function clipIndexedWith(db: CatalogDb, clipId: number, profileId: string): boolean {
  return statement(db, 'SELECT 1 FROM clips WHERE id = ? AND indexed_at IS NOT NULL AND indexed_profile = ?').get(clipId, profileId) !== undefined;
}

/** How this catalog's clips stand with the team: linked, indexed here (published or not), copied from other seats. */
export function teamClipCounts(db: CatalogDb): { clips: number; indexedHere: number; fromOtherSeats: number; unpublished: number } {
  return statement(
    db,
    `SELECT COUNT(*) AS clips,
            COUNT(*) FILTER (WHERE t.results_from IS NULL AND t.published_at IS NOT NULL) AS indexedHere,
            COUNT(*) FILTER (WHERE t.results_from IS NOT NULL) AS fromOtherSeats,
            COUNT(*) FILTER (WHERE t.results_from IS NULL AND t.published_at IS NULL AND c.indexed_at IS NOT NULL) AS unpublished
       FROM team_clips t JOIN clips c ON c.id = t.clip_id`,
  ).get() as { clips: number; indexedHere: number; fromOtherSeats: number; unpublished: number };
}
