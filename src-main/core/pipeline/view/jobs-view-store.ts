import type { CatalogDb } from '../../catalog/open-catalog';
import { BACKGROUND_STAGES, INDEX_STAGES, type JobsSummary, type OtherJob } from '../../../../src-shared/contract/jobs';
import type { ClipForJobs, FrontierRow } from './clip-jobs-fold';

/** Stage order and names as SQL, from the stage graph's constants only. */
const STAGE_RANK = `CASE stage ${INDEX_STAGES.map((st, i) => `WHEN '${st}' THEN ${i}`).join(' ')} END`;
const STAGE_AT = `CASE f.si ${INDEX_STAGES.map((st, i) => `WHEN ${i} THEN '${st}'`).join(' ')} END`;
const INDEX_STAGE_LIST = INDEX_STAGES.map((st) => `'${st}'`).join(',');

/**
 * Each clip's furthest indexing job in one query: what the summary and the list sort by. A clip
 * added by URL has no jobs: the service indexed it from its address when it was added
 * (service-actions/add-by-url), so it stands as one finished index step, or a failed one when the
 * add was cut short before it was indexed; the Jobs view counts it with the rest, as the Library does.
 * `ONLY` is the clip filter: every clip, or those in a JSON list.
 */
const frontiersSql = (only: (col: string) => string) =>
  `WITH f AS (SELECT clip_id, COALESCE(MAX(CASE WHEN state <> 'done' THEN ${STAGE_RANK} END), MAX(${STAGE_RANK})) AS si
              FROM jobs WHERE clip_id IS NOT NULL AND stage IN (${INDEX_STAGE_LIST}) ${only('clip_id')} GROUP BY clip_id)
   SELECT f.clip_id, j.stage, j.state, j.progress, j.resource, j.priority, c.duration_s, c.indexed_at, c.indexed_profile
   FROM f JOIN jobs j ON j.clip_id = f.clip_id AND j.stage = ${STAGE_AT} JOIN clips c ON c.id = f.clip_id
   UNION ALL
   SELECT c.id, 'index', CASE WHEN c.indexed_at IS NULL THEN 'failed' ELSE 'done' END, 1, 'network', 0, c.duration_s, c.indexed_at, c.indexed_profile
   FROM clips c WHERE c.source_url IS NOT NULL ${only('c.id')}`;

/**
 * The Jobs view's read model: its reads that join the pipeline's jobs with the library's clips.
 * Reads only (jobs are written by job-store.ts, clips by the library's repository); each statement
 * prepared once per store.
 */
export function createJobsViewStore(db: CatalogDb) {
  const allFrontiers = db.prepare(frontiersSql(() => ''));
  const someFrontiers = db.prepare(frontiersSql((col) => `AND ${col} IN (SELECT value FROM json_each(@ids))`));
  const backgroundCounts = db.prepare(
    `SELECT stage, SUM(state = 'queued') AS queued, SUM(state = 'running') AS running, SUM(state = 'paused') AS paused, SUM(state = 'failed') AS failed
     FROM jobs WHERE stage IN (SELECT value FROM json_each(?)) AND state IN ('queued', 'running', 'paused', 'failed') GROUP BY stage ORDER BY stage`,
  );
  const openClipless = db.prepare("SELECT stage, state FROM jobs WHERE clip_id IS NULL AND state IN ('queued', 'running') ORDER BY id");
  const clip = db.prepare('SELECT id, file_name, source_url, status, duration_s, probed_at, indexed_at, indexed_profile FROM clips WHERE id = ?');
  const everyLocalClip = db.prepare('SELECT id FROM clips WHERE source_url IS NULL ORDER BY id').pluck();
  const unindexedLocalClips = db
    .prepare(
      `SELECT c.id FROM clips c WHERE c.source_url IS NULL
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.clip_id = c.id AND j.stage IN (${INDEX_STAGE_LIST}) AND j.state IN ('queued', 'running', 'paused', 'failed', 'cancelled'))
       AND (c.indexed_at IS NULL OR c.indexed_profile IS NOT ?) ORDER BY c.id`,
    )
    .pluck();
  return {
    /** Each clip's furthest indexing job (of these clips, or of all). */
    frontiers: (clipIds?: readonly number[]) => (clipIds ? someFrontiers.all({ ids: JSON.stringify(clipIds) }) : allFrontiers.all()) as FrontierRow[],
    /** Jobs for no clip (the reference queries) that wait or run: the summary shows them apart from the clips. */
    otherJobs: () => openClipless.all() as OtherJob[],
    /** The background lane's open work by stage (none listed when it has none). */
    background: () => backgroundCounts.all(JSON.stringify(BACKGROUND_STAGES)) as JobsSummary['background'],
    clipForJobs: (clipId: number) => clip.get(clipId) as ClipForJobs | undefined,
    /**
     * The clips "index everything" hands over: with `restart` every local clip; otherwise those
     * without indexing work queued, failed or cancelled and not indexed with `profileId` (a paused
     * background proxy or a collection upload does not keep a clip from its indexing).
     */
    clipsToIndex: (o: { restart: boolean; profileId: string }) => (o.restart ? everyLocalClip.all() : unindexedLocalClips.all(o.profileId)) as number[],
  };
}

export type JobsViewStore = ReturnType<typeof createJobsViewStore>;
