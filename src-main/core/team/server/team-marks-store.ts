import type { ClientBase } from 'pg';
import type { Rating } from '../../../../src-shared/contract/marks';
import { clipToBytes, TEAM_BOUNDS } from '../rules/team-bounds';
import type { ClipMarkState, KeywordState, RangeState, Stamp } from '../../marks/marks-merge';

/**
 * The one owner of `team.clip_marks`, `team.ranges` and `team.keywords` (migration 0004). Seats send
 * whole versions of a row with a time and a seat per field; each upsert keeps, field by field, what
 * marks-merge.ts's rule keeps (later (time, seat) wins, the first delete stays, keyword adds and
 * removals each keep their latest), in one statement, so two seats sending at once cannot interleave.
 * An upsert that changes nothing updates no row, so it writes nothing to the feed. Clip ids here are
 * the team's. Texts longer than the server keeps (team migration 0009; far above what the marks
 * contract lets an editor type) are cut to fit rather than held back forever.
 */

const time = (ms: number) => new Date(ms);
const stamp = (at: Date, by: string): Stamp => ({ at: at.getTime(), by });
const maybeStamp = (at: Date | null, by: string | null): Stamp | null => (at && by ? stamp(at, by) : null);

export async function upsertTeamRange(client: ClientBase, r: RangeState): Promise<void> {
  await client.query(
    `INSERT INTO team.ranges AS r (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by,
       note, note_at, note_by, rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     ON CONFLICT (id) DO UPDATE SET
       in_frame   = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.in_frame ELSE r.in_frame END,
       out_frame  = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.out_frame ELSE r.out_frame END,
       rate_num   = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.rate_num ELSE r.rate_num END,
       rate_den   = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.rate_den ELSE r.rate_den END,
       span_by    = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.span_by ELSE r.span_by END,
       span_at    = CASE WHEN (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by) THEN excluded.span_at ELSE r.span_at END,
       name       = CASE WHEN (excluded.name_at, excluded.name_by) > (r.name_at, r.name_by) THEN excluded.name ELSE r.name END,
       name_by    = CASE WHEN (excluded.name_at, excluded.name_by) > (r.name_at, r.name_by) THEN excluded.name_by ELSE r.name_by END,
       name_at    = CASE WHEN (excluded.name_at, excluded.name_by) > (r.name_at, r.name_by) THEN excluded.name_at ELSE r.name_at END,
       note       = CASE WHEN (excluded.note_at, excluded.note_by) > (r.note_at, r.note_by) THEN excluded.note ELSE r.note END,
       note_by    = CASE WHEN (excluded.note_at, excluded.note_by) > (r.note_at, r.note_by) THEN excluded.note_by ELSE r.note_by END,
       note_at    = CASE WHEN (excluded.note_at, excluded.note_by) > (r.note_at, r.note_by) THEN excluded.note_at ELSE r.note_at END,
       rating     = CASE WHEN (excluded.rating_at, excluded.rating_by) > (r.rating_at, r.rating_by) THEN excluded.rating ELSE r.rating END,
       rating_by  = CASE WHEN (excluded.rating_at, excluded.rating_by) > (r.rating_at, r.rating_by) THEN excluded.rating_by ELSE r.rating_by END,
       rating_at  = CASE WHEN (excluded.rating_at, excluded.rating_by) > (r.rating_at, r.rating_by) THEN excluded.rating_at ELSE r.rating_at END,
       created_by = CASE WHEN (excluded.created_at, excluded.created_by) < (r.created_at, r.created_by) THEN excluded.created_by ELSE r.created_by END,
       created_at = CASE WHEN (excluded.created_at, excluded.created_by) < (r.created_at, r.created_by) THEN excluded.created_at ELSE r.created_at END,
       deleted_by = CASE WHEN r.deleted_at IS NULL OR (excluded.deleted_at, excluded.deleted_by) < (r.deleted_at, r.deleted_by) THEN COALESCE(excluded.deleted_by, r.deleted_by) ELSE r.deleted_by END,
       deleted_at = CASE WHEN r.deleted_at IS NULL OR (excluded.deleted_at, excluded.deleted_by) < (r.deleted_at, r.deleted_by) THEN COALESCE(excluded.deleted_at, r.deleted_at) ELSE r.deleted_at END
     WHERE (excluded.span_at, excluded.span_by) > (r.span_at, r.span_by)
        OR (excluded.name_at, excluded.name_by) > (r.name_at, r.name_by)
        OR (excluded.note_at, excluded.note_by) > (r.note_at, r.note_by)
        OR (excluded.rating_at, excluded.rating_by) > (r.rating_at, r.rating_by)
        OR (excluded.created_at, excluded.created_by) < (r.created_at, r.created_by)
        OR (excluded.deleted_at IS NOT NULL AND (r.deleted_at IS NULL OR (excluded.deleted_at, excluded.deleted_by) < (r.deleted_at, r.deleted_by)))`,
    [
      r.id,
      r.clipId,
      r.span.value.inFrame,
      r.span.value.outFrame,
      r.span.value.rateNum,
      r.span.value.rateDen,
      time(r.span.stamp.at),
      r.span.stamp.by,
      clipToBytes(r.name.value, TEAM_BOUNDS.rangeName),
      time(r.name.stamp.at),
      r.name.stamp.by,
      clipToBytes(r.note.value, TEAM_BOUNDS.rangeNote),
      time(r.note.stamp.at),
      r.note.stamp.by,
      r.rating.value,
      time(r.rating.stamp.at),
      r.rating.stamp.by,
      time(r.created.at),
      r.created.by,
      r.deleted ? time(r.deleted.at) : null,
      r.deleted?.by ?? null,
    ],
  );
}

export async function upsertTeamKeyword(client: ClientBase, k: KeywordState): Promise<void> {
  await client.query(
    `INSERT INTO team.keywords AS k (clip_id, range_id, keyword_norm, keyword, added_at, added_by, removed_at, removed_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (clip_id, range_id, keyword_norm) DO UPDATE SET
       keyword    = CASE WHEN (excluded.added_at, excluded.added_by) > (k.added_at, k.added_by) THEN excluded.keyword ELSE k.keyword END,
       added_by   = CASE WHEN (excluded.added_at, excluded.added_by) > (k.added_at, k.added_by) THEN excluded.added_by ELSE k.added_by END,
       added_at   = CASE WHEN (excluded.added_at, excluded.added_by) > (k.added_at, k.added_by) THEN excluded.added_at ELSE k.added_at END,
       removed_by = CASE WHEN k.removed_at IS NULL OR (excluded.removed_at, excluded.removed_by) > (k.removed_at, k.removed_by) THEN COALESCE(excluded.removed_by, k.removed_by) ELSE k.removed_by END,
       removed_at = CASE WHEN k.removed_at IS NULL OR (excluded.removed_at, excluded.removed_by) > (k.removed_at, k.removed_by) THEN COALESCE(excluded.removed_at, k.removed_at) ELSE k.removed_at END
     WHERE (excluded.added_at, excluded.added_by) > (k.added_at, k.added_by)
        OR (excluded.removed_at IS NOT NULL AND (k.removed_at IS NULL OR (excluded.removed_at, excluded.removed_by) > (k.removed_at, k.removed_by)))`,
    [k.clipId, k.rangeId, k.norm, clipToBytes(k.display, TEAM_BOUNDS.keyword), time(k.added.at), k.added.by, k.removed ? time(k.removed.at) : null, k.removed?.by ?? null],
  );
}

export async function upsertTeamClipMark(client: ClientBase, m: ClipMarkState): Promise<void> {
  await client.query(
    `INSERT INTO team.clip_marks AS m (clip_id, rating, rating_at, rating_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (clip_id) DO UPDATE SET rating = excluded.rating, rating_at = excluded.rating_at, rating_by = excluded.rating_by
     WHERE (excluded.rating_at, excluded.rating_by) > (m.rating_at, m.rating_by)`,
    [m.clipId, m.rating.value, time(m.rating.stamp.at), m.rating.stamp.by],
  );
}

interface RangeRow {
  id: string;
  clip_id: string;
  in_frame: number;
  out_frame: number;
  rate_num: number;
  rate_den: number;
  span_at: Date;
  span_by: string;
  name: string;
  name_at: Date;
  name_by: string;
  note: string;
  note_at: Date;
  note_by: string;
  rating: Rating;
  rating_at: Date;
  rating_by: string;
  created_at: Date;
  created_by: string;
  deleted_at: Date | null;
  deleted_by: string | null;
}

function rangeOf(r: RangeRow): RangeState {
  return {
    id: r.id,
    clipId: Number(r.clip_id),
    span: { value: { inFrame: r.in_frame, outFrame: r.out_frame, rateNum: r.rate_num, rateDen: r.rate_den }, stamp: stamp(r.span_at, r.span_by) },
    name: { value: r.name, stamp: stamp(r.name_at, r.name_by) },
    note: { value: r.note, stamp: stamp(r.note_at, r.note_by) },
    rating: { value: r.rating, stamp: stamp(r.rating_at, r.rating_by) },
    created: stamp(r.created_at, r.created_by),
    deleted: maybeStamp(r.deleted_at, r.deleted_by),
  };
}

interface KeywordRow {
  clip_id: string;
  range_id: string | null;
  keyword_norm: string;
  keyword: string;
  added_at: Date;
  added_by: string;
  removed_at: Date | null;
  removed_by: string | null;
}

function keywordOf(k: KeywordRow): KeywordState {
  return {
    clipId: Number(k.clip_id),
    rangeId: k.range_id,
    norm: k.keyword_norm,
    display: k.keyword,
    added: stamp(k.added_at, k.added_by),
    removed: maybeStamp(k.removed_at, k.removed_by),
  };
}

interface ClipMarkRow {
  clip_id: string;
  rating: Rating;
  rating_at: Date;
  rating_by: string;
}

const clipMarkOf = (m: ClipMarkRow): ClipMarkState => ({ clipId: Number(m.clip_id), rating: { value: m.rating, stamp: stamp(m.rating_at, m.rating_by) } });

/** Every shared mark, as the feed names them: ranges by uuid, keywords by row id, clip ratings by clip. */
export interface TeamMarkKeys {
  rangeIds: readonly string[];
  keywordIds: readonly number[];
  clipIds: readonly number[];
}

export interface TeamMarks {
  ranges: RangeState[];
  keywords: KeywordState[];
  clipMarks: ClipMarkState[];
}

/** The rows the feed named (rows gone since are simply absent). */
export async function readTeamMarks(client: ClientBase, keys: TeamMarkKeys): Promise<TeamMarks> {
  const ranges = await client.query<RangeRow>(`SELECT id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by,
       note, note_at, note_by, rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by
     FROM team.ranges WHERE id = ANY($1::uuid[])`, [keys.rangeIds]);
  const keywords = await client.query<KeywordRow>(`SELECT clip_id, range_id, keyword_norm, keyword, added_at, added_by, removed_at, removed_by FROM team.keywords WHERE id = ANY($1::bigint[])`, [keys.keywordIds]);
  const clipMarks = await client.query<ClipMarkRow>('SELECT clip_id, rating, rating_at, rating_by FROM team.clip_marks WHERE clip_id = ANY($1::bigint[])', [keys.clipIds]);
  return { ranges: ranges.rows.map(rangeOf), keywords: keywords.rows.map(keywordOf), clipMarks: clipMarks.rows.map(clipMarkOf) };
}

/** Every mark of these team clips: what a seat takes when it links a clip whose marks it skipped. */
export async function readTeamMarksOfClips(client: ClientBase, clipIds: readonly number[]): Promise<TeamMarks> {
  const ranges = await client.query<RangeRow>(`SELECT id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by,
       note, note_at, note_by, rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by
     FROM team.ranges WHERE clip_id = ANY($1::bigint[])`, [clipIds]);
  const keywords = await client.query<KeywordRow>(`SELECT clip_id, range_id, keyword_norm, keyword, added_at, added_by, removed_at, removed_by FROM team.keywords WHERE clip_id = ANY($1::bigint[])`, [clipIds]);
  const clipMarks = await client.query<ClipMarkRow>('SELECT clip_id, rating, rating_at, rating_by FROM team.clip_marks WHERE clip_id = ANY($1::bigint[])', [clipIds]);
  return { ranges: ranges.rows.map(rangeOf), keywords: keywords.rows.map(keywordOf), clipMarks: clipMarks.rows.map(clipMarkOf) };
}
