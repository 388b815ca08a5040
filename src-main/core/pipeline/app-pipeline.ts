import os from 'node:os';
import type { jobsMethods } from '../../../src-shared/contract/jobs';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { Logger } from '../util/logger';
import { IndexingPipeline } from './indexing-pipeline';
import type { IndexingPipelineOptions, ServiceAccess } from './pipeline-options';
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
  start(): void;
  stop(): Promise<void>;
}

/**
 * The pipeline as the app runs it: events on the app's bus, the key re-checked when the settings
 * change; the library hands it imported clips (enqueueClips). Call start() once the handlers
 * are in the dispatcher, and stop() before the catalog closes.
 */
export function createAppPipeline(d: AppPipelineDeps): AppPipeline {
  const pipeline = new IndexingPipeline({
    db: d.db,
    events: d.events,
    service: d.service,
    cacheDir: d.cacheDir,
    tools: d.tools,
    logger: d.logger,
    autoIndex: true,
    concurrency: { cpu: appCpuSlots(), network: 3 },
    ...d.options,
  });
  return {
    pipeline,
    handlers: createJobsHandlers({ pipeline }),
    start: () => pipeline.start(),
    stop: () => pipeline.stop(),
  };
}

/**
 * CPU stages run at once: one per core plus one. ffmpeg children and the ONNX worker pool do the
 * work off the main thread; the extra slot keeps a core busy while another stage waits on a pipe or
 * spawns, and lets the card's lead clip run through its stages while two slots make posters
 * (bench:index measures it against one per core).
 */
export function appCpuSlots(): number {
  return os.availableParallelism() + 1;
}
