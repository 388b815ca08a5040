import { EMBEDDING_MODEL_FILE } from '../analysis/resource-paths';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import { DEFAULT_TENSOR_PROFILE } from '../tensors/tensor-profile';
import { createPeopleHandlers } from './people-handlers';
import { createPeopleService } from './people-service';
import { createPresenceStore } from './presence-store';

export interface PeopleModuleDeps {
  db: CatalogDb;
  events: EventBus;
  /** The editor's setting: faces are told apart (embedded, grouped) only while it is on. */
  recognition: () => boolean;
  /** People changed (an edit here, or one applied from the team): a joined seat sends its outbox soon. */
  edited?: () => void;
}

/** People on an open catalog: the service the pipeline tells of analysed clips, the handlers, and where people are seen. */
export function createPeopleModule(d: PeopleModuleDeps) {
  const service = createPeopleService({
    db: d.db,
    // Faces carry the embedding model's file name (analysis/pool-feed.ts): another file is another space.
    model: () => EMBEDDING_MODEL_FILE,
    changed: (clipIds) => {
      d.events.emit('catalog.changed', { reason: 'people', ...(clipIds ? { clipIds } : {}) });
      d.edited?.();
    },
  });
  return {
    service,
    handlers: createPeopleHandlers(d.db, service, d.recognition),
    // Faces are sampled on the tensor grid: one sample stands for 1 / fps seconds.
    presence: createPresenceStore(d.db, 1 / DEFAULT_TENSOR_PROFILE.fps),
  };
}
