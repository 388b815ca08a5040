import fs from 'node:fs';
import path from 'node:path';
import { AppError, toAppError, type AppErrorData } from '../../../src-shared/errors';
import type { collectionsMethods, CollectionsList } from '../../../src-shared/contract/collections';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { ServiceClient } from '../service';
import type { Logger } from '../util/logger';
import type { ClipFiles } from './clip-files';
import type { CollectionScheduler } from './collection-job-stages';
import { searchCollectionClips } from './collection-search';
import { createCollectionOnce } from './create-collection-once';
import { interactiveClient, syncCallClient } from '../service/interactive-client';
import { type CollectionStore } from './collection-store';
import { OPEN_STATES, toContractVideo, type VideoKey } from './collection-video-row';

export interface CollectionsDeps {
  store: CollectionStore;
  clips: ClipFiles;
  events: EventBus;
  /** The region chosen in Settings: the cache and the mapping are kept per region. */
  region: () => string;
  /** The configured service client; throws AppError (auth/invalid) when it is not set up. */
  client: () => ServiceClient;
  scheduler: CollectionScheduler;
  /** A row changed: push it to the renderer. */
  notify: (key: VideoKey) => void;
  /** When the library offers it: catalogue a folder before attaching it. */
  importFolder?: (folder: string) => Promise<void>;
  /** While joined to a team library: adds and removals are sent soon (they are in the outbox either way). */
  share?: () => { edited(): void } | null;
  logger?: Logger;
}

export function createCollectionsHandlers(d: CollectionsDeps): HandlersFor<typeof collectionsMethods> {
  const listFromCache = (region: string, source: 'service' | 'cache', error?: AppErrorData): CollectionsList => d.store.cachedList(region, source, error);

  return {
    /**
     * The cached list, refreshed from the service when asked (or when nothing is cached yet).
     * When the service cannot answer, the cache is returned with the reason, never an error.
     */
    'collections.list': async ({ refresh }) => {
      const region = d.region();
      if (!refresh && d.store.lastSynced(region) !== null) return listFromCache(region, 'cache');
      try {
        const items = await interactiveClient(d.client()).listCollections();
        d.store.replaceCollections(
          region,
          items.map((c) => ({ id: c.id, name: c.name ?? c.id, description: c.description ?? null, raw: c.raw })),
        );
      } catch (e) {
        const err = toAppError(e);
        if (err.kind === 'internal') throw err;
        d.logger?.info('collections.list.cached', { kind: err.kind, message: err.message });
        return listFromCache(region, 'cache', err.toJSON());
      }
      const out = listFromCache(region, 'service');
      d.events.emit('collections.changed', out);
      return out;
    },

    'collections.create': async ({ name, description }) => {
      const region = d.region();
      const { collectionId, raw, found } = await createCollectionOnce(d.client(), name, description);
      d.store.upsertCollection(region, { id: collectionId, name, description, raw });
      d.logger?.info('collections.created', { collectionId, foundAfterLostAnswer: found });
      d.events.emit('collections.changed', listFromCache(region, 'cache'));
      const summary = d.store.summary(region, collectionId);
      if (!summary) throw new AppError('internal', `collection ${collectionId} was not cached`);
      return summary;
    },

    'collections.attach': async ({ collectionId, clipIds, folder }) => {
      const region = d.region();
      if (!d.store.hasCollection(region, collectionId)) {
        throw new AppError('not_found', `collection ${collectionId} is not in the list: refresh the collections first`);
      }
      let ids: number[];
      if (clipIds) {
        const known = d.clips.exists(clipIds);
        const unknown = clipIds.filter((id) => !known.has(id));
        if (unknown.length) throw new AppError('not_found', `not in the catalog: clip ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? '…' : ''}`);
        ids = [...new Set(clipIds)];
      } else {
        const dir = path.resolve(folder!);
        if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new AppError('not_found', `not a folder: ${dir}`);
        if (d.importFolder) await d.importFolder(dir);
        ids = d.clips.underFolder(dir);
        if (ids.length === 0) throw new AppError('not_found', `no catalogued clips under ${dir}: import the folder into the library first`);
      }
      const { queued, already } = d.store.attach(region, collectionId, ids);
      for (const clipId of queued) d.notify({ collectionId, region, clipId });
      d.scheduler.schedule(queued);
      d.share?.()?.edited();
      d.logger?.info('collections.attached', { collectionId, queued: queued.length, already: already.length });
      d.events.emit('collections.changed', listFromCache(region, 'cache'));
      return { queued: queued.length, already: already.length, clipIds: ids };
    },

    'collections.videos': ({ collectionId }) => ({
      collectionId,
      videos: d.store.rowsOfCollection(d.region(), collectionId).map(toContractVideo),
    }),

    /** Stops uploads and polling for the clips; a video the service already has keeps its id. */
    'collections.cancel': ({ collectionId, clipIds }) => {
      const region = d.region();
      const wanted = clipIds ? new Set(clipIds) : null;
      const rows = d.store.rowsOfCollection(region, collectionId).filter((r) => OPEN_STATES.includes(r.status) && (!wanted || wanted.has(r.clipId)));
      for (const r of rows) {
        const key = { collectionId, region, clipId: r.clipId };
        d.store.update(key, { status: 'cancelled', progress: null, errorKind: null, errorMessage: null });
        d.notify(key);
      }
      d.scheduler.cancel(rows.map((r) => r.clipId));
      return { cancelled: rows.length };
    },

    'collections.remove': ({ collectionId, clipIds }) => {
      const region = d.region();
      const removed = d.store.remove(region, collectionId, [...new Set(clipIds)]);
      d.scheduler.cancel(removed);
      d.logger?.info('collections.removed', { collectionId, removed: removed.length });
      d.share?.()?.edited();
      d.events.emit('collections.changed', listFromCache(region, 'cache'));
      return { removed: removed.length };
    },

    'collections.search': ({ collectionId, text, topK }) => searchCollectionClips({ ...d, client: () => syncCallClient(d.client()) }, collectionId, text, topK),
  };
}
