import path from 'node:path';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { PollOptions, ServiceClient, VideoStatus } from '../service';
import type { Logger } from '../util/logger';
import { createClipFiles } from './clip-files';
import { createCollectionRunner, type CollectionRunnerOptions, type CollectionScheduler } from './collection-runner';
import type { CollectionStageDeps } from './collection-stages';
import { createCollectionStore, toContractVideo, type VideoKey } from './collection-store';
import { createCollectionsHandlers } from './collections-handlers';

export interface CollectionsModuleOptions {
  db: CatalogDb;
  events: EventBus;
  /** The app cache folder: proxies go to <cacheDir>/collection-proxies. */
  cacheDir: string;
  region: () => string;
  client: () => ServiceClient;
  ffmpeg: () => string;
  logger?: Logger;
  proxyThresholdBytes?: number;
  poll?: Omit<PollOptions<VideoStatus>, 'signal' | 'onProgress'>;
  runner?: CollectionRunnerOptions;
  /**
   * Runs the stages some other way (the durable job queue): given the stage deps, returns the
   * scheduler the handlers use. Without it the in-process runner does the work.
   */
  scheduler?: (stageDeps: CollectionStageDeps) => CollectionScheduler;
  importFolder?: (folder: string) => Promise<void>;
}

/**
 * Everything the collections feature needs, built from app-level services: the handlers for the
 * contract, the stage functions' deps (for the job queue), and the in-process runner.
 */
export function createCollectionsModule(o: CollectionsModuleOptions) {
  const store = createCollectionStore(o.db);
  const clips = createClipFiles(o.db);
  const notify = (key: VideoKey) => {
    const row = store.row(key);
    if (row) o.events.emit('collections.video', toContractVideo(row));
  };
  const stageDeps: CollectionStageDeps = {
    store,
    clips,
    region: o.region,
    client: o.client,
    ffmpeg: o.ffmpeg,
    proxyDir: path.join(o.cacheDir, 'collection-proxies'),
    proxyThresholdBytes: o.proxyThresholdBytes,
    poll: o.poll,
    notify,
    logger: o.logger,
  };
  const runner = o.scheduler ? null : createCollectionRunner(stageDeps, o.runner);
  const scheduler = o.scheduler ? o.scheduler(stageDeps) : runner!;
  const handlers = createCollectionsHandlers({
    store,
    clips,
    events: o.events,
    region: o.region,
    client: o.client,
    scheduler,
    notify,
    importFolder: o.importFolder,
    logger: o.logger,
  });
  // The in-process runner leaves rows stopped on 'auth' or 'quota' waiting; a settings change
  // (a key entered, another URL) is the user's answer to both, so everything open is tried again.
  const unsubscribe = runner
    ? o.events.subscribe((event) => {
        if (event === 'settings.changed') runner.resume();
      })
    : () => {};
  return {
    handlers,
    stageDeps,
    store,
    runner,
    /** Picks up rows left open by the last run (uploads cut off, videos still processing). */
    resume(): number {
      return runner ? runner.resume() : 0;
    },
    async dispose(): Promise<void> {
      unsubscribe();
      await runner?.dispose();
    },
  };
}

export type CollectionsModule = ReturnType<typeof createCollectionsModule>;
