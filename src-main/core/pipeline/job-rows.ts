import type { CatalogDb } from '../catalog/open-catalog';
import { ERROR_KINDS, type ErrorKind } from '../../../src-shared/errors';
import type { StageName } from '../../../src-shared/contract/stage-graph';
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
    // A payload this code did not write: keep it visible rather than crash the queue.
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

export function getJobRow(db: CatalogDb, id: number): JobRow | undefined {
  return db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
}

export function findJobRow(db: CatalogDb, clipId: number | null, stage: string): JobRow | undefined {
  return (clipId === null
    ? db.prepare('SELECT * FROM jobs WHERE clip_id IS NULL AND stage = ? ORDER BY id DESC LIMIT 1').get(stage)
    : db.prepare('SELECT * FROM jobs WHERE clip_id = ? AND stage = ?').get(clipId, stage)) as JobRow | undefined;
}
