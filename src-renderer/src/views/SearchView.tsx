import { Fragment, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { QueryChip, SearchFiltersIn, SearchResponse, SearchResult, Strictness } from '../../../src-shared/contract/search';
import { cleanFilters, FilterBar } from '../components/search/FilterBar';
import { ResultCard } from '../components/search/ResultCard';
import { isWholeClip, viewerRangeOf } from '../components/search/format';
import { EmulatorNote, SearchNotices, ServiceWait, StatusLine } from '../components/search/SearchNotices';
import { Viewer } from '../components/viewer/Viewer';
import { ExportMenu } from '../components/ExportMenu';
import { SaveAsRanges } from '../components/search/SaveAsRanges';
import { tcRange } from '../components/timecode-format';
import { quotePhrase, removePhrase, searchExportTitle } from '../components/search/query-text';
import { useFacets, useHistory, useSearchRunner, useSearchStatus } from '../components/search/use-search';
import { filterCount, followBox } from '../components/search/search-box';
import { usePersonCompletion } from '../components/search/PersonCompletion';
import '../components/search/search.css';

const TOPK_CHOICES = [12, 24, 48, 96];
const STRICTNESS_CHOICES: ReadonlyArray<[Strictness, string, string]> = [
  ['any', 'all, best first', 'Every result, best first; a line marks where matches end (score 50)'],
  ['medium', 'matches', 'Only results at or above the relevance floor (score 50 or more)'],
  ['high', 'strong matches', 'Only strong matches (score 75 or more)'],
];
export function SearchView(): ReactNode {
  const status = useSearchStatus();
  const { facets, reload: reloadFacets } = useFacets();
  const { queries, reload: reloadHistory } = useHistory();
  const { response, request, busy, error, run, more, clear } = useSearchRunner();
  const [text, setText] = useState('');
  const queryInput = useRef<HTMLInputElement>(null);
  const names = usePersonCompletion(queryInput, setText);
  const [topK, setTopK] = useState(24);
  const [strictness, setStrictness] = useState<Strictness>('any');
  const [filters, setFilters] = useState<SearchFiltersIn>({});
  const [collections, setCollections] = useState(true);
  const [showFilters, setShowFilters] = useState(false);
  const [playing, setPlaying] = useState<SearchResult | null>(null);
  const cleaned = useMemo(() => cleanFilters(filters), [filters]);
  const activeFilters = filterCount(cleaned);
  const offline = status?.service.state === 'offline' || status?.service.state === 'unconfigured';

  // What the box says now, with the filters: its words, the filters alone, or nothing on screen.
  const searchText = async (q: string) => {
    const intent = followBox(q, { topK, strictness, filters: cleaned, collections });
    if (intent.kind === 'clear') return clear();
    await run(intent.request);
    if (intent.request.text) reloadHistory();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void searchText(text);
  };
  const similar = (r: SearchResult) => {
    if (r.segmentId === null) return;
    setPlaying(null);
    void run({ kind: 'similar', segmentId: r.segmentId, label: `${r.clipName} ${tcRange({ rate: r.clipRate, timecode: r.clipTimecode }, r.inFrame, r.outFrame)}`, topK, strictness, filters: cleaned });
  };
  // Filters, page size and strictness apply at once: to a "similar" search on screen, else to what
  // the box says (never the words of an earlier search the box no longer holds). A facet picked
  // with nothing on screen searches too: with an empty box it browses by the filters alone.
  useEffect(() => {
    if (request?.kind === 'similar') void run({ ...request, topK, strictness, filters: cleaned });
    else if (request || activeFilters > 0) void searchText(text);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cleaned, topK, strictness, collections]);

  const results = response?.results ?? [];
  return (
    <div className="view sv-view" data-view="search">
      <div className="row sv-header">
        <h1>Search</h1>
        <StatusLine status={status} />
      </div>
      <EmulatorNote status={status} />
      <form className="row sv-bar" onSubmit={submit} role="search">
        <div className="sv-grow sv-query-wrap">
        <input
          ref={queryInput}
          id="search-query"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={names.open}
          aria-controls="search-person-names"
          aria-activedescendant={names.activeId}
          className="sv-grow sv-query"
          placeholder={offline ? 'Offline: earlier queries run from the cache' : 'Describe a moment: “red car at night”, “close-up, handheld”, “@Maria interview”…'}
          value={text}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            // Emptying the box ends its query: the filters alone, or nothing, replace its results.
            if (!next.trim() && text.trim() && request?.kind !== 'similar') void searchText('');
            names.update();
          }}
          onSelect={names.update}
          onBlur={names.close}
          onKeyDown={(e) => {
            // While known names are offered, the keys choose among them (Enter takes one, it does not search).
            if (names.onKeyDown(e)) return;
            // Enter on an empty box without filters submits nothing (the button is off): it still
            // means "no search", so nothing earlier stays on screen.
            if (e.key === 'Enter' && !text.trim() && activeFilters === 0) clear();
          }}
          aria-label="Search text"
          autoFocus
        />
        {names.list}
        </div>
        <select value={strictness} onChange={(e) => setStrictness(e.target.value as Strictness)} aria-label="Which results to show" data-testid="search-strictness" title={STRICTNESS_CHOICES.find((c) => c[0] === strictness)?.[2]}>
          {STRICTNESS_CHOICES.map(([v, label, title]) => (
            <option key={v} value={v} title={title}>
              {label}
            </option>
          ))}
        </select>
        <select value={topK} onChange={(e) => setTopK(Number(e.target.value))} aria-label="Clips per page" data-testid="search-topk">
          {TOPK_CHOICES.map((k) => (
            <option key={k} value={k}>
              {k} per page
            </option>
          ))}
        </select>
        <button type="button" className={`btn${activeFilters ? ' sv-on' : ''}`} onClick={() => {
            // Facets scan the catalog: refresh them when the panel opens, not after every search.
            if (!showFilters) reloadFacets();
            setShowFilters(!showFilters);
          }} aria-expanded={showFilters} data-action="toggle-filters">
          Filters{activeFilters ? ` (${activeFilters})` : ''}
        </button>
        <button type="submit" className="btn primary" disabled={busy || (!text.trim() && activeFilters === 0)} data-action="search">
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {queries.length > 0 && (
        <div className="row sv-history sv-small" aria-label="Recent searches">
          <span className="muted">Recent (work offline):</span>
          {queries.map((q) => (
            <button
              key={q.normalized}
              type="button"
              className="sv-chip"
              onClick={() => {
                setText(q.text);
                void searchText(q.text);
              }}
              data-history={q.normalized}
            >
              {q.text}
            </button>
          ))}
        </div>
      )}
      {showFilters && <FilterBar facets={facets} filters={filters} onChange={setFilters} collections={collections} onCollections={setCollections} />}
      {busy && <ServiceWait status={status} />}
      <SearchNotices response={response} error={error} />
      {request?.kind === 'similar' && (
        <div className="sv-note sv-small" data-testid="similar-to">
          Segments similar to <strong>{request.label}</strong> (from its stored embedding: works offline).
        </div>
      )}
      {response?.parsed && response.parsed.chips.length > 0 && (
        <QueryChips
          chips={response.parsed.chips}
          sentText={response.parsed.text}
          onRemove={(c) => {
            // Removing a chip removes its words from the query, and the search runs again without them.
            const next = removePhrase(text, c.phrase);
            setText(next);
            void searchText(next);
          }}
          onWords={(c) => {
            // Its words in quotes: the parser leaves quoted words to the service, now and in every later search.
            const next = quotePhrase(text, c.phrase);
            setText(next);
            void searchText(next);
          }}
        />
      )}
      {response && !response.cannotRun && response.query.segmentId === null && response.query.text === '' && (
        <div className="sv-note sv-small" data-testid="filters-only">
          Browsing by filters alone (the search box is empty): every moment that passes them, in library order (folder, file name, then time). Type words to rank them.
        </div>
      )}
      {response && !response.cannotRun && response.relevance.state === 'calibrating' && (
        <div className="banner" role="status" data-testid="calibrating">
          <strong>Scores are on their way</strong>
          <span>
            Results are in order of similarity. A score says whether a result matches once the service has encoded the reference queries it is measured against ({response.relevance.encoded} of{' '}
            {response.relevance.total}); this happens once.
          </span>
        </div>
      )}
      {response && !response.cannotRun && response.noGoodMatch && (
        <div className="banner" role="status" data-testid="no-good-match">
          <strong>No good match</strong>
          <span>{noMatchText(response)}</span>
        </div>
      )}
      {response && !response.cannotRun && (
        <div className="row sv-summary-row">
          <div className="muted sv-small" data-testid="search-summary">
            {results.length} clip{results.length === 1 ? '' : 's'}
            {response.page.hasMore ? ' so far' : ''}
            {response.stats.allowed !== null ? ` among ${response.stats.allowed.toLocaleString()} segments passing the filters` : ''}
            {response.stats.unindexed > 0 ? ` and ${response.stats.unindexed.toLocaleString()} moment${response.stats.unindexed === 1 ? '' : 's'} found from faces in clips not indexed yet` : ''} · {response.stats.indexed.toLocaleString()} indexed · {Math.round(response.stats.tookMs)} ms
          </div>
          <span className="sv-grow" />
          {results.length > 0 && <SaveAsRanges moments={results.map((r) => ({ clipId: r.clipId, inFrame: r.inFrame, outFrame: r.outFrame }))} />}
          {results.length > 0 && (
            // The moments found, in rank order, as items of a selects sequence for the NLE.
            <ExportMenu
              label="Export results"
              title={searchExportTitle(response.query.text)}
              selection={{ spans: results.map((r) => ({ clipId: r.clipId, inFrame: r.inFrame, outFrame: r.outFrame })) }}
            />
          )}
        </div>
      )}
      {response && !response.cannotRun && results.length === 0 && <div className="empty">No segments match. Loosen the filters, or let the pipeline index more footage.</div>}
      {!response && !busy && !error && (
        <div className="empty">
          Type what you need and land on the moment, or pick Filters to browse by them alone. {status && status.index.size === 0 ? 'Nothing is indexed yet: import footage and let the pipeline run.' : ''}
        </div>
      )}
      {results.length > 0 && (
        // While a new search runs, the previous results stay but read as stale. Results are in score
        // order: a line marks where matches end.
        <div className="sv-grid" data-testid="search-results" aria-busy={busy}>
          {results.map((r, i) => (
            <Fragment key={`${r.segmentId ?? 'c'}-${r.clipId}-${r.rank}`}>
              {i > 0 && r.score !== null && !r.good && results[i - 1]!.good && (
                <div className="sv-floor-line" role="separator" data-testid="floor-line">
                  <span>Below the relevance floor: closest, not matching</span>
                </div>
              )}
              <ResultCard r={r} onOpen={(res, at) => setPlaying(at ? { ...res, ...at } : res)} onSimilar={similar} />
            </Fragment>
          ))}
        </div>
      )}
      {response && !response.cannotRun && response.page.hasMore && (
        <div className="row sv-more-row">
          <button type="button" className="btn" onClick={() => void more()} disabled={busy} data-action="show-more">
            {busy ? 'Loading…' : `Show ${topK} more`}
          </button>
          <span className="muted sv-small">{response.relevance.state === 'unscored' ? 'in library order: folder, file name, then time' : 'best first'}</span>
        </div>
      )}
      {playing && (
        <Viewer
          key={`${playing.clipId}-${playing.inFrame}`}
          clipId={playing.clipId}
          range={isWholeClip(playing) ? null : viewerRangeOf(playing, playing.clipRate)}
          onClose={() => setPlaying(null)}
          extra={
            playing.segmentId !== null ? (
              <button type="button" className="btn" onClick={() => similar(playing)} data-action="player-similar">
                Find similar
              </button>
            ) : undefined
          }
        />
      )}
    </div>
  );
}

/** Why nothing matched, in the words of the search on screen (a text query or a moment's look). */
function noMatchText(r: SearchResponse): string {
  const q = r.parsed?.text ?? r.query.text;
  const what = r.query.segmentId !== null ? 'Nothing in the library looks enough like this moment' : `Nothing in the library matches “${q ?? ''}” better than generic text does`;
  return `${what}: the closest results are below, all under the relevance floor (50). Try other words, or check that the footage is indexed.`;
}

/** What the query's words became: filters as chips (their words turn them back into words, × removes them), and the words the service was asked about. */
function QueryChips({ chips, sentText, onRemove, onWords }: { chips: QueryChip[]; sentText: string; onRemove: (c: QueryChip) => void; onWords: (c: QueryChip) => void }): ReactNode {
  return (
    <div className="row sv-querychips sv-small" data-testid="query-chips" aria-label="Filters read from the query">
      <span className="muted">Understood:</span>
      {chips.map((c) => (
        <span key={`${c.field}-${c.value}-${c.negated}`} className={`sv-chip on${c.negated ? ' sv-chip-not' : ''}`} data-chip={`${c.negated ? 'not-' : ''}${c.value}`}>
          <button type="button" className="sv-chip-words" title={`Search “${c.phrase}” as words, not as a filter`} onClick={() => onWords(c)} data-action="chip-to-words">
            {c.negated ? 'not ' : ''}
            {/* A person reads as typed: @Maria, not a camera word. */}
            {c.field === 'person' ? `@${c.label}` : c.label}
          </button>
          <button type="button" className="sv-chip-x" aria-label={`Remove ${c.negated ? 'not ' : ''}${c.label}`} onClick={() => onRemove(c)} data-action="remove-chip">
            ×
          </button>
        </span>
      ))}
      <span className="muted">{sentText ? <>· searching for “{sentText}”</> : '· filters only'}</span>
    </div>
  );
}
