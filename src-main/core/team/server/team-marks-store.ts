import type { ClientBase } from 'pg';
import type { Rating } from '../../../../src-shared/contract/marks';
import { clipToBytes, TEAM_BOUNDS } from '../rules/team-bounds';
import type { ClipMarkState, KeywordState, RangeState } from '../../marks/marks-merge';
import type { Stamp } from '../../util/take-field';

/**
 * The one owner of `team.clip_marks`, `team.ranges` and `team.keywords` (migrations 0004, 0014). A
 * seat sends whole versions of a row, each field with its base: the server's stamp of the version
 * the seat last saw (0 for a field it made). The server's trigger (0014) decides field by field: a
 * changed value is taken only over an unchanged base and stamped by the server's clock, else the
 * server's newer value stays; so these upserts only hand the row over, and skip it when no value
 * differs (it writes nothing then, and nothing to the feed). Clip ids here are the team's. Texts
 * longer than the server keeps (team migration 0009; far above what the marks contract lets an
 * editor type) are cut to fit rather than held back forever.
 */

const time = (ms: number) => new Date(ms);
const stamp = (at: Date, by: string): Stamp => ({ at: at.getTime(), by });
const maybeStamp = (at: Date | null, by: string | null): Stamp | null => (at && by ? stamp(at, by) : null);

export async function upsertTeamRange(client: ClientBase, r: RangeState): Promise<void> {
  await client.query(
    `INSERT INTO team.ranges AS r (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by,
       note, note_at, note_by, rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     ON CONFLICT (id) DO UPDATE SET in_frame = excluded.in_frame, out_frame = excluded.out_frame, rate_num = excluded.rate_num,
       rate_den = excluded.rate_den, span_at = excluded.span_at, span_by = excluded.span_by, name = excluded.name, name_at = excluded.name_at,
       name_by = excluded.name_by, note = excluded.note, note_at = excluded.note_at, note_by = excluded.note_by, rating = excluded.rating,
       rating_at = excluded.rating_at, rating_by = excluded.rating_by, deleted_at = excluded.deleted_at, deleted_by = excluded.deleted_by
     WHERE (excluded.in_frame, excluded.out_frame, excluded.rate_num, excluded.rate_den, excluded.name, excluded.note, excluded.rating, excluded.deleted_at IS NULL)
        IS DISTINCT FROM (r.in_frame, r.out_frame, r.rate_num, r.rate_den, r.name, r.note, r.rating, r.deleted_at IS NULL)`,
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

/** A keyword's base is `added.at`; `removed` non-null says the seat holds it removed. */
export async function upsertTeamKeyword(client: ClientBase, k: KeywordState): Promise<void> {
  await client.query(
    `INSERT INTO team.keywords AS k (clip_id, range_id, keyword_norm, keyword, added_at, added_by, removed_at, removed_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (clip_id, range_id, keyword_norm) DO UPDATE SET keyword = excluded.keyword, added_at = excluded.added_at, added_by = excluded.added_by,
       removed_at = excluded.removed_at, removed_by = excluded.removed_by
     WHERE (excluded.removed_at IS NULL) <> (k.removed_at IS NULL OR k.added_at > k.removed_at)`,
    [k.clipId, k.rangeId, k.norm, clipToBytes(k.display, TEAM_BOUNDS.keyword), time(k.added.at), k.added.by, k.removed ? time(k.removed.at) : null, k.removed?.by ?? null],
  );
}

export async function upsertTeamClipMark(client: ClientBase, m: ClipMarkState): Promise<void> {
  await client.query(
    `INSERT INTO team.clip_marks AS m (clip_id, rating, rating_at, rating_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (clip_id) DO UPDATE SET rating = excluded.rating, rating_at = excluded.rating_at, rating_by = excluded.rating_by
     WHERE excluded.rating IS DISTINCT FROM m.rating`,
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
