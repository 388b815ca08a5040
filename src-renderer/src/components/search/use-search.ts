import { useCallback, useEffect, useRef, useState } from 'react';
import type { CachedQuery, Facets, SearchFiltersIn, SearchResponse, SearchStatus, Strictness } from '../../../../src-shared/contract/search';
import { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** Service reachability and index state, pushed by the search.status event. */
export function useSearchStatus(): SearchStatus | null {
  const [status, setStatus] = useState<SearchStatus | null>(null);
  useEffect(() => {
    let live = true;
    api
      .call('search.status', {})
      .then((s) => live && setStatus(s))
      .catch(() => undefined);
    const off = api.on('search.status', (s) => setStatus(s));
    return () => {
      live = false;
      off();
    };
  }, []);
  return status;
}

/** Tag values, folders and ranges for the filter bar; loaded when asked (the panel opens), since they scan the catalog. */
export function useFacets(): { facets: Facets | null; reload: () => void } {
  const [facets, setFacets] = useState<Facets | null>(null);
  const reload = useCallback(() => {
    api
      .call('search.facets', {})
      .then(setFacets)
      .catch(() => undefined);
  }, []);
  return { facets, reload };
}

export function useHistory(): { queries: CachedQuery[]; reload: () => void } {
  const [queries, setQueries] = useState<CachedQuery[]>([]);
  const reload = useCallback(() => {
    api
      .call('search.history', { limit: 12 })
      .then((h) => setQueries(h.queries))
      .catch(() => undefined);
  }, []);
  useEffect(reload, [reload]);
  return { queries, reload };
}

export type SearchRequest =
  | { kind: 'text'; text: string; topK: number; strictness: Strictness; filters: SearchFiltersIn; collections: boolean }
  | { kind: 'similar'; segmentId: number; label: string; topK: number; strictness: Strictness; filters: SearchFiltersIn };

function call(r: SearchRequest, offset: number): Promise<SearchResponse> {
  return r.kind === 'text'
    ? api.call('search.text', { text: r.text, topK: r.topK, offset, strictness: r.strictness, filters: r.filters, collections: r.collections })
    : api.call('search.similar', { segmentId: r.segmentId, topK: r.topK, offset, strictness: r.strictness, filters: r.filters });
}

/**
 * Runs one search at a time; a newer request makes the answer of an older one irrelevant. `more`
 * fetches the next page of the search on screen and appends its cards.
 */
export function useSearchRunner(): {
  response: SearchResponse | null;
  request: SearchRequest | null;
  busy: boolean;
  error: AppError | null;
  run: (r: SearchRequest) => Promise<void>;
  more: () => Promise<void>;
  clear: () => void;
} {
  const [response, setResponse] = useState<SearchResponse | null>(null);
  const [request, setRequest] = useState<SearchRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const seq = useRef(0);
  const run = useCallback(async (r: SearchRequest) => {
    const mine = ++seq.current;
    setBusy(true);
    setError(null);
    setRequest(r);
    try {
      const res = await call(r, 0);
      if (mine === seq.current) setResponse(res);
    } catch (e) {
      if (mine === seq.current) {
        setResponse(null);
        setError(e instanceof AppError ? e : new AppError('internal', String(e)));
      }
    } finally {
      if (mine === seq.current) setBusy(false);
    }
  }, []);
  const more = useCallback(async () => {
    const r = request;
    const shown = response;
    if (!r || !shown || !shown.page.hasMore) return;
    const mine = ++seq.current;
    setBusy(true);
    try {
      const next = await call(r, shown.page.offset + shown.results.length);
      if (mine === seq.current) setResponse({ ...next, results: [...shown.results, ...next.results], noGoodMatch: shown.noGoodMatch, page: { ...next.page, offset: shown.page.offset } });
    } catch (e) {
      if (mine === seq.current) setError(e instanceof AppError ? e : new AppError('internal', String(e)));
    } finally {
      if (mine === seq.current) setBusy(false);
    }
  }, [request, response]);
  /** No search on screen: the answer of one still running is dropped, like that of any older request. */
  const clear = useCallback(() => {
    ++seq.current;
    setRequest(null);
    setResponse(null);
    setError(null);
    setBusy(false);
  }, []);
  return { response, request, busy, error, run, more, clear };
}
