import type { searchMethods } from '../../../src-shared/contract/search';
import { facesOfShot } from '../analysis/analysis-store';
import type { CatalogDb } from '../catalog/open-catalog';
import type { HandlersFor } from '../rpc/handlers';
import type { EmbeddingSpace } from './index/embedding-space';
import { searchFacets } from './query/search-facets';
import { clipTagSpans } from './results/segment-tags';
import type { SearchService, SearchStores } from './search-service';

export interface SearchHandlerDeps {
  search: SearchService;
  stores: Pick<SearchStores, 'filters' | 'tags'>;
  db: CatalogDb;
  space: () => EmbeddingSpace;
}

/** The search part of the contract; arguments arrive validated (defaults applied) by the dispatcher. */
export function createSearchHandlers(d: SearchHandlerDeps): HandlersFor<typeof searchMethods> {
  return {
    'search.text': (a) => d.search.text(a),
    'search.similar': (a) => d.search.similar(a),
    'search.facets': () => searchFacets(d.stores.filters, d.space()),
    'search.faces': ({ shotId }) => ({ frames: facesOfShot(d.db, shotId).map(({ timeS, faces }) => ({ timeS, faces })) }),
    'search.clipTags': ({ clipId }) => ({ spans: clipTagSpans(d.stores.tags, clipId) }),
    'search.status': () => d.search.status(),
    'search.history': ({ limit }) => ({ queries: d.search.history(limit) }),
  };
}
