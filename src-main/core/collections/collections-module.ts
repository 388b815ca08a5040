import path from 'node:path';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { ServiceClient } from '../service';
import type { Logger } from '../util/logger';
import { createClipFiles } from './clip-files';
import { COLLECTION_POLL_STAGE, COLLECTION_UPLOAD_STAGE, collectionStageHandlers, createQueueScheduler, type CollectionQueue } from './collection-job-stages';
import type { CollectionShare } from '../team-port';
import type { CollectionStageDeps } from './collection-stages';
import { createCollectionStore } from './collection-store';
import { toContractVideo, type VideoKey } from './collection-video-row';
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
  /** The app's one runner (the pipeline's durable job queue): the module registers its two stages on it. */
  queue: CollectionQueue;
  /** Between two status rounds of a video the service is still processing. */
  recheckMs?: number;
  importFolder?: (folder: string) => Promise<void>;
  /** While joined to a team library: the uploads' claim (team/syncs/collections-sync.ts); null when solo. */
  share?: () => CollectionShare | null;
}

/**
 * Everything the collections feature needs, built from app-level services: the handlers for the
 * contract, and its two stages registered on the app's durable job queue.
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
    notify,
    logger: o.logger,
    share: o.share,
  };
  for (const h of collectionStageHandlers(stageDeps, { recheckMs: o.recheckMs })) o.queue.register(h);
  const scheduler = createQueueScheduler(o.queue, stageDeps);
  const handlers = createCollectionsHandlers({
    store,
    clips,
    events: o.events,
    region: o.region,
    client: o.client,
    scheduler,
    notify,
    importFolder: o.importFolder,
    share: o.share,
    logger: o.logger,
  });
  return {
    handlers,
    stageDeps,
    store,
    notify,
    scheduler,
    /** The collections' counts changed elsewhere (another seat of the team): tell the views. */
    listChanged: () => o.events.emit('collections.changed', store.cachedList(o.region())),
    /**
     * Queues the clips whose rows are open (attached, cut off mid-upload, still processing) and have
     * no job in the queue: rows written before a crash that lost their job, or by an older version.
     */
    resume(): number {
      const region = o.region();
      const active = (clipId: number) =>
        ([COLLECTION_UPLOAD_STAGE, COLLECTION_POLL_STAGE] as const).some((st) => ['queued', 'running', 'paused'].includes(o.queue.find(clipId, st)?.state ?? ''));
      const open = store.openClipIds(region).filter((clipId) => !active(clipId));
      scheduler.schedule(open);
      return open.length;
    },
  };
}

export type CollectionsModule = ReturnType<typeof createCollectionsModule>;
