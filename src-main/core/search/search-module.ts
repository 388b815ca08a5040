import type { searchMethods } from '../../../src-shared/contract/search';
import { QUERY_BANK_STAGE } from '../../../src-shared/contract/stage-graph';
import { toAppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import type { PersonPresence } from '../people/person-presence';
import { createPresenceStore } from '../people/presence-store';
import { DEFAULT_TENSOR_PROFILE } from '../tensors/tensor-profile';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import { ServiceClient, type ServiceConfig } from '../service';
import type { RetryOptions } from '../service/http/retry';
import type { Logger } from '../util/logger';
import { HIGH_PRIORITY } from '../pipeline/queue/job-queue';
import type { AnyStageHandler, JobSpec, JobState } from '../pipeline/queue/job-types';
import type { EmbeddingSpace } from './index/embedding-space';
import { createCollectionStore, type CollectionStore } from '../collections/collection-store';
import { createIndexSyncStore } from './index/index-sync-store';
import { createQueryEmbeddingStore } from './query/query-embedding-store';
import { createResultStore } from './results/result-store';
import { createPeopleScopeStore } from './query/people-scope-store';
import { createSearchFilterStore } from './query/search-filter-store';
import { createTagResolutionStore } from './query/tag-resolution-store';
import { queryBankStage } from './relevance/query-bank-stage';
import type { TextShare } from '../team-port';
import { createSearchHandlers } from './search-handlers';
import { SearchIndexManager, type SearchIndexManagerOptions } from './index/search-index-manager';
import { createSearchService, type SearchService, type SearchStores } from './search-service';

export interface SearchModuleOptions {
  db: CatalogDb;
  /** Where the vector index lives, beside the catalog (e.g. <dataDir>/search-index). */
  indexDir: string;
  /** Model and region the pipeline stores embeddings under (embeddings.model / embeddings.region). */
  space: () => EmbeddingSpace;
  /** Current service settings with the key; throws AppError when there is no key or address. */
  serviceConfig: () => ServiceConfig;
  collectionStore?: CollectionStore;
  events?: EventBus;
  logger?: Logger;
  /** Retry policy of the calls someone waits for (tests shorten the deadline); SYNC_CALL_RETRY by default. */
  serviceRetry?: Partial<RetryOptions>;
  /** Index tuning (tests shorten the save delay and polling). */
  index?: Partial<Omit<SearchIndexManagerOptions, 'store' | 'dir' | 'space'>>;
  /**
   * The app's one runner (the pipeline's durable job queue): search registers its query-bank stage on
   * it. Without one (tests of search alone), `encodeBank` encodes the reference queries directly.
   */
  queue?: SearchQueue;
  /** The app's background client, for the reference queries (defaults to one built from serviceConfig). */
  backgroundClient?: () => ServiceClient;
  /** A team library's encoded texts while this seat is joined (team/syncs/text-sharing.ts); null when solo. */
  textShare?: () => TextShare | null;
  /**
   * Where named people are visible (`@Name`). By default the presence read model over this catalog,
   * its faces sampled at the default tensor profile's rate (the app passes its own profile's).
   */
  presence?: PersonPresence;
}

/** The part of the job queue search uses. */
export interface SearchQueue {
  register(handler: AnyStageHandler): void;
  enqueue(spec: JobSpec, opts?: { reset?: boolean }): unknown;
  find(clipId: number | null, stage: typeof QUERY_BANK_STAGE): { id: number; state: JobState } | undefined;
}

export interface SearchModule {
  handlers: HandlersFor<typeof searchMethods>;
  service: SearchService;
  index: SearchIndexManager;
  /** Loads (or rebuilds) the index in the background; searches wait for it. */
  start(): Promise<void>;
  /** Encodes the missing reference queries now, without the queue (tests; the queue's stage does the same). */
  encodeBank(): Promise<void>;
  dispose(): Promise<void>;
}

/** What the app's service provider offers (src-main/core/service-provider.ts), structurally. */
export interface ServiceProviderLike {
  client(): ServiceClient;
  identity(): { region: string; model: string };
}

/**
 * Binds search to the app's service provider: the embedding space is the provider's identity (the
 * same the pipeline stores embeddings under), and search builds its own fast-failing client from the
 * provider's configuration (same key, so the same shared limiter and auth/quota state).
 */
export function searchServiceBinding(provider: ServiceProviderLike): Pick<SearchModuleOptions, 'space' | 'serviceConfig'> {
  return {
    space: () => provider.identity(),
    serviceConfig: () => ({ ...provider.client().transport.config }),
  };
}

/** Everything search needs, wired: the composition root calls this once and spreads `handlers`. */
export function createSearchModule(o: SearchModuleOptions): SearchModule {
  let service: SearchService | null = null;
  const emitStatus = () => {
    if (!service || !o.events) return;
    try {
      o.events.emit('search.status', service.status());
    } catch (e) {
      o.logger?.warn('search.status.emit.failed', { message: toAppError(e).message });
    }
  };
  const stores: SearchStores = {
    queryEmbeddings: createQueryEmbeddingStore(o.db),
    indexSync: createIndexSyncStore(o.db),
    results: createResultStore(o.db),
    tags: createTagResolutionStore(o.db),
    filters: createSearchFilterStore(o.db),
    collections: o.collectionStore ?? createCollectionStore(o.db),
    peopleScope: createPeopleScopeStore(o.db),
  };
  const index = new SearchIndexManager({
    store: stores.indexSync,
    dir: o.indexDir,
    space: o.space,
    logger: o.logger,
    onStatus: emitStatus,
    onChanged: (ids) => service?.vectorsChanged(ids),
    ...o.index,
  });
  const bankStage = queryBankStage({
    queryEmbeddings: stores.queryEmbeddings,
    space: o.space,
    indexDimension: () => index.status().dimension,
    client: o.backgroundClient ?? (() => new ServiceClient(o.serviceConfig())),
    onEncoded: () => service?.bankChanged(),
    textShare: () => o.textShare?.() ?? null,
  });
  o.queue?.register(bankStage);
  const requestBank = () => {
    const q = o.queue;
    if (!q) return;
    try {
      o.serviceConfig();
    } catch {
      return; // no key or address yet: nothing can encode them
    }
    const job = q.find(null, QUERY_BANK_STAGE);
    if (job && (job.state === 'queued' || job.state === 'running' || job.state === 'paused')) return;
    q.enqueue({ clipId: null, stage: QUERY_BANK_STAGE, priority: HIGH_PRIORITY }, { reset: true });
  };
  service = createSearchService({
    stores,
    presence: o.presence ?? createPresenceStore(o.db, 1 / DEFAULT_TENSOR_PROFILE.fps),
    index,
    space: o.space,
    serviceConfig: o.serviceConfig,
    logger: o.logger,
    onStatusChange: emitStatus,
    requestBank,
    retry: o.serviceRetry,
    textShare: () => o.textShare?.() ?? null,
  });
  return {
    handlers: createSearchHandlers({ search: service, stores, db: o.db, space: o.space }),
    service,
    index,
    async encodeBank() {
      const ac = new AbortController();
      await bankStage.run({ job: { id: 0, clipId: null, stage: QUERY_BANK_STAGE, state: 'running', resource: 'network', priority: 0, attempts: 0, progress: 0, lastErrorKind: null, lastErrorMessage: null, payload: null, notBefore: null }, payload: null, signal: ac.signal, stopping: ac.signal, progress: () => undefined });
    },
    start: () =>
      index
        .start()
        .then(() => service?.bankChanged())
        .catch((e) => {
          o.logger?.error('search.index.start.failed', { message: toAppError(e).message });
        }),
    dispose: () => index.dispose(),
  };
}
