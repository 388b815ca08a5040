import type { CatalogDb } from '../../catalog/open-catalog';
import type { Logger } from '../../util/logger';
import type { BackoffOptions } from './error-policy';
import type { JobResource, JobState } from './job-types';

export interface JobQueueOptions {
  db: CatalogDb;
  /** Jobs running at once per resource. CPU stages (ffmpeg, ONNX) and network stages never share slots. */
  concurrency?: Partial<Record<JobResource, number>>;
  backoff?: BackoffOptions;
  /** Failed runs before a job is failed, unless its handler says otherwise. */
  defaultMaxAttempts?: number;
  /** A job found running at start-up this many times has crashed the app each time: it is failed. */
  maxRecoveries?: number;
  /** Progress is written to the database at most this often per job (events go out every time). */
  progressWriteMs?: number;
  /** A network job asked to stop gets this long to finish its calls in flight before they are cut. */
  stopGraceMs?: number;
  now?: () => number;
  logger?: Logger;
  /** Room to write in the data folder, looked at before a job starts: none holds every stage. */
  disk?: DiskRoomCheck;
}

/** What the queue needs of the app's disk guard (util/disk-space.ts). */
export interface DiskRoomCheck {
  room(): { ok: boolean };
  describe(): string;
  /** A write met a full disk (the guard's metFullDisk: the room needed may rise above what is free). */
  metFullDisk?(): void;
}

export interface ListFilter {
  clipId?: number;
  states?: JobState[];
  stages?: string[];
  limit?: number;
  offset?: number;
}
