import os from 'node:os';
import type { jobsMethods } from '../../../src-shared/contract/jobs';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { Logger } from '../util/logger';
import { IndexingPipeline, type IndexingPipelineOptions, type ServiceAccess } from './indexing-pipeline';
import { createJobsHandlers } from './pipeline-handlers';

export interface AppPipelineDeps {
  db: CatalogDb;
  events: EventBus;
  /** The app's ServiceProvider (client per settings, configured(), identity()). */
  service: ServiceAccess;
  /** App cache folder (thumbnails in its thumbs/). */
  cacheDir: string;
  tools?: () => { ffmpeg?: string; ffprobe?: string };
  logger?: Logger;
  /** Anything else (profile, concurrency, probes) for tests and benchmarks. */
  options?: Partial<IndexingPipelineOptions>;
}

export interface AppPipeline {
  pipeline: IndexingPipeline;
  handlers: HandlersFor<typeof jobsMethods>;
  /** Pass as the library's scheduleMedia: the pipeline then makes shots and thumbnails (no second queue racing it). */
  scheduleMedia: (clipIds: number[]) => void;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The pipeline as the app runs it: events on the app's bus, imported clips queued as they arrive
 * (catalog.changed), the key re-checked when the settings change. Call start() once the handlers
 * are in the dispatcher, and stop() before the catalog closes.
 */
export function createAppPipeline(d: AppPipelineDeps): AppPipeline {
  const cpus = os.availableParallelism();
  const pipeline = new IndexingPipeline({
    db: d.db,
    events: d.events,
    service: d.service,
    cacheDir: d.cacheDir,
    tools: d.tools,
    logger: d.logger,
    autoIndex: true,
    // ffmpeg decodes with several threads itself: one CPU stage at a time per two cores.
    concurrency: { cpu: Math.max(1, Math.floor(cpus / 2)), network: 3 },
    ...d.options,
  });
  return {
    pipeline,
    handlers: createJobsHandlers({ pipeline }),
    scheduleMedia: (ids) => {
      pipeline.enqueueClips(ids);
    },
    start: () => pipeline.start(),
    stop: () => pipeline.stop(),
  };
}
