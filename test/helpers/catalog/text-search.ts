import { searchMethods, type SearchResponse } from '../../../src-shared/contract/search';
import type { SearchModule } from '../../../src-main/core/search/search-module';

export interface TextSearchOptions {
  topK?: number;
  offset?: number;
  filters?: unknown;
  collections?: boolean;
}

/**
 * search.text on the search module through the contract's schemas, as the dispatcher would call
 * it: defaults applied to the arguments, the result validated. Ten results, no collections, unless told.
 */
export async function textSearch(mod: Pick<SearchModule, 'handlers'>, text: string, o: TextSearchOptions = {}): Promise<SearchResponse> {
  const args = searchMethods['search.text'].args.parse({ topK: 10, collections: false, ...o, text });
  return searchMethods['search.text'].result.parse(await mod.handlers['search.text'](args, { transport: 'test' }));
}
