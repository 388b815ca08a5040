import type { CatalogDb } from '../../catalog/open-catalog';
import { ERROR_KINDS, type ErrorKind } from '../../../../src-shared/errors';
import type { StageName } from '../../../../src-shared/contract/stage-graph';
import { LANE_ORDER, STAGE_GRAPH, STAGE_NAMES } from '../../../../src-shared/contract/stage-graph';
import { JOB_STATES, type Job, type JobResource, type JobState } from './job-types';

/** A jobs row as SQLite returns it (0001 columns plus 0006's). */
export interface JobRow {
  id: number;
  clip_id: number | null;
  /** Only the queue writes this column, always with a declared stage name. */
  stage: StageName;
  state: string;
  resource: string;
  priority: number;
  attempts: number;
  progress: number;
  last_error_kind: string | null;
  last_error_message: string | null;
  payload_json: string | null;
  not_before: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  run_ms: number;
  work_s: number | null;
  note: string | null;
  recoveries: number;
}

function parsePayload(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A payload this code did not write: keep it visible rather than crash the queue (the stage's parse fails it with a reason).
    return text;
  }
}

export function rowToJob(r: JobRow): Job {
  return {
    id: r.id,
    clipId: r.clip_id,
    stage: r.stage,
    state: (JOB_STATES as readonly string[]).includes(r.state) ? (r.state as JobState) : 'failed',
    resource: (r.resource === 'network' ? 'network' : 'cpu') as JobResource,
    priority: r.priority,
    attempts: r.attempts,
    progress: r.progress,
    lastErrorKind: r.last_error_kind && (ERROR_KINDS as readonly string[]).includes(r.last_error_kind) ? (r.last_error_kind as ErrorKind) : r.last_error_kind ? 'internal' : null,
    lastErrorMessage: r.last_error_message,
    payload: parsePayload(r.payload_json),
    notBefore: r.not_before,
    note: r.note,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    runMs: r.run_ms,
    workS: r.work_s,
  };
}

/** What a run's end writes (JobQueue.settle): the columns it names change, the others stay. */
export interface SettleFields {
  state: JobState;
  progress?: number;
  note?: string | null;
  not_before?: number | null;
  finished_at?: number | null;
  last_error_kind?: string | null;
  last_error_message?: string | null;
  attempts?: number;
}

/** A finished job as the ETA learns from it. */
export interface FinishedJobRow {
  stage: StageName;
  run_ms: number;
  work_s: number | null;
  finished_at: number;
  clip_id: number | null;
}

/**
 * Queue order at equal priority: the preview lane (probe, poster) of every clip first, then clip
 * after clip (lowest id first), so one clip finishes all its stages before the next one starts.
 * Built from the stage graph's constants only.
 */
const LANE_RANK = `CASE stage ${STAGE_NAMES.map((st) => `WHEN '${st}' THEN ${LANE_ORDER[STAGE_GRAPH[st].lane]}`).join(' ')} ELSE 9 END`;

/** Lists of states, stages or ids travel as one JSON parameter, so each statement is prepared once. */
const json = (list: readonly unknown[]) => JSON.stringify(list);
const flag = (b: boolean | undefined) => (b ? 1 : 0);

/**
 * The owner of `jobs`: the only code that reads or writes it (the gate's `queue_flags` are
 * queue-flags-store.ts'). Every statement is prepared once per store (the queue's pump runs them on
 * every settle and timer).
 */
export function createJobStore(db: CatalogDb) {
  const byId = db.prepare('SELECT * FROM jobs WHERE id = ?');
  const ofClipStage = db.prepare('SELECT * FROM jobs WHERE clip_id = ? AND stage = ?');
  const latestClipless = db.prepare('SELECT * FROM jobs WHERE clip_id IS NULL AND stage = ? ORDER BY id DESC LIMIT 1');
  const insert = db.prepare(
    `INSERT INTO jobs (clip_id, stage, state, resource, priority, attempts, progress, payload_json, not_before, created_at, updated_at, work_s)
     VALUES (@clipId, @stage, 'queued', @resource, @priority, 0, 0, @payload, NULL, @now, @now, @workS)`,
  );
  const startOver = db.prepare(
    `UPDATE jobs SET state = 'queued', resource = @resource, priority = MAX(priority, @priority), attempts = 0, progress = 0, last_error_kind = NULL,
       last_error_message = NULL, payload_json = COALESCE(@payload, payload_json), not_before = NULL, note = NULL, recoveries = 0,
       started_at = NULL, finished_at = NULL, work_s = COALESCE(@workS, work_s), updated_at = @now WHERE id = @id`,
  );
  const raise = db.prepare('UPDATE jobs SET priority = MAX(priority, ?), work_s = COALESCE(work_s, ?), updated_at = ? WHERE id = ?');
  const recover = db.prepare(
    `UPDATE jobs SET recoveries = recoveries + 1, updated_at = @now,
       state = CASE WHEN recoveries + 1 > @max THEN 'failed' ELSE 'queued' END,
       last_error_kind = CASE WHEN recoveries + 1 > @max THEN 'internal' ELSE last_error_kind END,
       last_error_message = CASE WHEN recoveries + 1 > @max THEN 'the app stopped while running this job ' || (recoveries + 1) || ' times' ELSE last_error_message END
     WHERE state = 'running'`,
  );
  const idsInStates = db.prepare('SELECT id FROM jobs WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id').pluck();
  const idsOfClipInStates = db.prepare('SELECT id FROM jobs WHERE clip_id = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY id').pluck();
  const idsOfStageInStates = db.prepare('SELECT id FROM jobs WHERE stage = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY id').pluck();
  const wakeUnplugged = db
    .prepare("UPDATE jobs SET not_before = NULL, updated_at = ? WHERE clip_id = ? AND state = 'queued' AND last_error_kind = 'unplugged' AND not_before IS NOT NULL RETURNING id")
    .pluck();
  const wakeStage = db
    .prepare("UPDATE jobs SET not_before = NULL, updated_at = ? WHERE clip_id = ? AND stage = ? AND state = 'queued' AND not_before IS NOT NULL RETURNING id")
    .pluck();
  const raiseClip = db.prepare("UPDATE jobs SET priority = MAX(priority, ?), updated_at = ? WHERE clip_id = ? AND state IN ('queued', 'paused', 'running')");
  const transition = db.prepare(
    `UPDATE jobs SET state = @to, updated_at = @now,
       attempts = CASE WHEN @fresh THEN 0 ELSE attempts END,
       last_error_kind = CASE WHEN @fresh THEN NULL ELSE last_error_kind END,
       last_error_message = CASE WHEN @fresh THEN NULL ELSE last_error_message END,
       recoveries = CASE WHEN @fresh THEN 0 ELSE recoveries END,
       progress = CASE WHEN @fresh THEN 0 ELSE progress END,
       note = CASE WHEN @fresh THEN NULL ELSE note END,
       not_before = CASE WHEN @clearNotBefore THEN NULL ELSE not_before END,
       finished_at = CASE WHEN @to = 'cancelled' THEN @now ELSE finished_at END
     WHERE id = @id AND state IN (SELECT value FROM json_each(@from))`,
  );
  const listOfClip = db.prepare(
    `SELECT * FROM jobs WHERE clip_id = @clipId AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
     AND (@stages IS NULL OR stage IN (SELECT value FROM json_each(@stages))) ORDER BY id LIMIT @limit OFFSET @offset`,
  );
  const listAll = db.prepare(
    `SELECT * FROM jobs WHERE (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
     AND (@stages IS NULL OR stage IN (SELECT value FROM json_each(@stages))) ORDER BY id LIMIT @limit OFFSET @offset`,
  );
  const anyQueued = db.prepare("SELECT 1 FROM jobs WHERE state = 'queued' AND stage IN (SELECT value FROM json_each(?)) LIMIT 1");
  const due = db.prepare(
    `SELECT * FROM jobs WHERE state = 'queued' AND stage IN (SELECT value FROM json_each(?)) AND (not_before IS NULL OR not_before <= ?)
     ORDER BY priority DESC, ${LANE_RANK}, clip_id IS NULL, clip_id, id LIMIT ?`,
  );
  const nextWake = db
    .prepare(`SELECT MIN(not_before) FROM jobs WHERE state = 'queued' AND not_before IS NOT NULL AND not_before > ? AND stage IN (SELECT value FROM json_each(?))`)
    .pluck();
  const requeueUnsettled = db.prepare("UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'running' AND id NOT IN (SELECT value FROM json_each(?))");
  const markRunning = db.prepare("UPDATE jobs SET state = 'running', started_at = ?, updated_at = ?, not_before = NULL, finished_at = NULL WHERE id = ? AND state = 'queued'");
  const progress = db.prepare('UPDATE jobs SET progress = ?, note = ?, updated_at = ? WHERE id = ?');
  const settle = db.prepare(
    `UPDATE jobs SET state = @state, progress = @progress, note = @note, not_before = @not_before, finished_at = @finished_at,
       last_error_kind = @last_error_kind, last_error_message = @last_error_message, attempts = @attempts,
       run_ms = run_ms + @ranMs, updated_at = @now WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM jobs WHERE id = ?');
  const finished = db.prepare(
    `SELECT stage, run_ms, work_s, finished_at, clip_id FROM jobs WHERE state = 'done' AND finished_at IS NOT NULL
     ORDER BY finished_at DESC LIMIT ?`,
  );
  const stageFinishedAt = db.prepare('SELECT finished_at FROM jobs WHERE clip_id = ? AND stage = ?').pluck();

  const row = (id: number) => byId.get(id) as JobRow | undefined;
  return {
    /** Several writes as one (an enqueue's read and insert, a settle and the jobs it hands over to). */
    inTransaction: <T>(fn: () => T): T => db.transaction(fn)(),
    row,
    /** A clip's job of a stage (one per clip and stage), or a clip-less stage's latest. */
    rowOf: (clipId: number | null, stage: string) => (clipId === null ? latestClipless.get(stage) : ofClipStage.get(clipId, stage)) as JobRow | undefined,
    insert: (j: { clipId: number | null; stage: StageName; resource: JobResource; priority: number; payload: string | null; workS: number | null }, now: number) =>
      Number(insert.run({ ...j, now }).lastInsertRowid),
    /** From the start again as queued, fresh attempts, the priority only raised. */
    startOver: (id: number, j: { resource: JobResource; priority: number; payload: string | null; workS: number | null }, now: number) => startOver.run({ ...j, id, now }),
    raisePriority: (id: number, priority: number, workS: number | null, now: number) => raise.run(priority, workS, now, id),
    /** Crash recovery: a job left running goes back to queued, or fails once it has crashed the app `max` times. */
    recoverRunning: (now: number, max: number) => recover.run({ now, max }),
    idsInStates: (states: readonly JobState[]) => idsInStates.all(json(states)) as number[],
    idsOfStageInStates: (stage: StageName, states: readonly JobState[]) => idsOfStageInStates.all(stage, json(states)) as number[],
    idsOfClipInStates: (clipId: number, states: readonly JobState[]) => idsOfClipInStates.all(clipId, json(states)) as number[],
    /** A clip's jobs waiting out a drive that was away may run now: the ids woken. */
    wakeUnplugged: (clipId: number, now: number) => wakeUnplugged.all(now, clipId) as number[],
    /** A clip's job of `stage` waiting out a delay, due now (whatever it waited for has come). */
    wakeStage: (clipId: number, stage: StageName, now: number) => wakeStage.all(now, clipId, stage) as number[],
    raiseClipPriority: (clipId: number, priority: number, now: number) => raiseClip.run(priority, now, clipId).changes,
    /** A state change of a job not running: only from the given states. Whether it happened. */
    transition: (id: number, from: readonly JobState[], to: JobState, o: { fresh?: boolean; clearNotBefore?: boolean }, now: number) =>
      transition.run({ id, from: json(from), to, fresh: flag(o.fresh), clearNotBefore: flag(o.clearNotBefore), now }).changes > 0,
    list: (f: { clipId?: number; states?: readonly JobState[]; stages?: readonly string[]; limit?: number; offset?: number }) => {
      const args = { states: f.states?.length ? json(f.states) : null, stages: f.stages?.length ? json(f.stages) : null, limit: f.limit ?? -1, offset: f.offset ?? 0 };
      return (f.clipId !== undefined ? listOfClip.all({ ...args, clipId: f.clipId }) : listAll.all(args)) as JobRow[];
    },
    anyQueued: (stages: readonly StageName[]) => anyQueued.get(json(stages)) !== undefined,
    /** Queued jobs of these stages due by `now`, in queue order. */
    due: (stages: readonly StageName[], now: number, limit: number) => due.all(json(stages), now, limit) as JobRow[],
    /** When the next queued job of these stages waiting out a delay becomes due. */
    nextWake: (stages: readonly StageName[], now: number) => nextWake.get(now, json(stages)) as number | null,
    /** Jobs marked running with no run behind them (their settle found no room) go back to queued. */
    requeueUnsettled: (liveIds: readonly number[], now: number) => requeueUnsettled.run(now, json(liveIds)),
    markRunning: (id: number, now: number) => markRunning.run(now, now, id).changes > 0,
    writeProgress: (id: number, fraction: number, note: string | null, now: number) => progress.run(fraction, note, now, id),
    /** A run's end: the named columns change, the others keep the row's values. */
    settle: (id: number, fields: SettleFields, ranMs: number, now: number) => {
      const r = row(id);
      if (!r) return;
      settle.run({
        state: fields.state,
        progress: fields.progress ?? r.progress,
        note: fields.note !== undefined ? fields.note : r.note,
        not_before: fields.not_before !== undefined ? fields.not_before : r.not_before,
        finished_at: fields.finished_at !== undefined ? fields.finished_at : r.finished_at,
        last_error_kind: fields.last_error_kind !== undefined ? fields.last_error_kind : r.last_error_kind,
        last_error_message: fields.last_error_message !== undefined ? fields.last_error_message : r.last_error_message,
        attempts: fields.attempts ?? r.attempts,
        ranMs,
        now,
        id,
      });
    },
    remove: (id: number) => remove.run(id),
    /** The latest finished jobs, newest first: what the ETA starts from. */
    finished: (limit: number) => finished.all(limit) as FinishedJobRow[],
    /** When a clip's job of a stage finished (null when it has not). */
    stageFinishedAt: (clipId: number, stage: StageName) => (stageFinishedAt.get(clipId, stage) as number | null | undefined) ?? null,
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
