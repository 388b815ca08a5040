import type { ReactNode } from 'react';
import { FACET_FIELDS, type FacetField, type FacetValue, type Facets, type SearchFiltersIn } from '../../../../src-shared/contract/search';
import { dateFromInput, dateInputValue, FIELD_LABEL } from './format';

const HEIGHTS = [480, 720, 1080, 2160];

function TagChips({ field, values, selected, onToggle }: { field: FacetField; values: FacetValue[]; selected: string[]; onToggle: (v: string) => void }): ReactNode {
  return (
    <div className="sv-tagrow" data-filter={field}>
      <span className="sv-filter-label">{FIELD_LABEL[field]}</span>
      {values.length === 0 && <span className="muted sv-small">no tags yet</span>}
      {values.map((v) => (
        <button
          key={v.canonical}
          type="button"
          className={`sv-chip${selected.includes(v.canonical) ? ' on' : ''}`}
          aria-pressed={selected.includes(v.canonical)}
          onClick={() => onToggle(v.canonical)}
          title={field === 'people' ? `${v.segments} segment(s), from the local face detection` : `${v.segments} segment(s) with this ${FIELD_LABEL[field].toLowerCase()} (the service says so of ${v.service}, the local analysis of ${v.local})`}
          data-tag={v.canonical}
        >
          {v.label}
          <span className="sv-chip-count">{v.segments}</span>
        </button>
      ))}
    </div>
  );
}

function numberOrUndefined(s: string): number | undefined {
  if (s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Tag, duration, resolution, folder and date filters; everything narrows (AND), values of one tag field widen (OR). */
export function FilterBar({ facets, filters, onChange, collections, onCollections }: {
  facets: Facets | null;
  filters: SearchFiltersIn;
  onChange: (f: SearchFiltersIn) => void;
  collections: boolean;
  onCollections: (v: boolean) => void;
}): ReactNode {
  const tags = filters.tags ?? {};
  const setTags = (patch: Partial<NonNullable<SearchFiltersIn['tags']>>) => onChange({ ...filters, tags: { ...tags, ...patch } });
  const toggle = (field: FacetField, v: string) => {
    const cur: string[] = tags[field] ?? [];
    setTags({ [field]: cur.includes(v) ? cur.filter((x) => x !== v) : [...cur, v] });
  };
  const date = filters.date ?? { field: 'modified' as const };
  const setDate = (patch: Partial<NonNullable<SearchFiltersIn['date']>>) => onChange({ ...filters, date: { ...date, ...patch } });
  const heights = [...new Set([...HEIGHTS, ...(facets?.heights ?? [])])].filter((h) => !facets || facets.heights.some((x) => x >= h)).sort((a, b) => a - b);

  return (
    <section className="card sv-filters" aria-label="Filters">
      {FACET_FIELDS.map((f) => (
        <TagChips key={f} field={f} values={facets?.[f] ?? []} selected={tags[f] ?? []} onToggle={(v) => toggle(f, v)} />
      ))}
      <div className="sv-filter-grid">
        <label>
          <span className="sv-filter-label">Tags from</span>
          <select value={tags.source ?? 'either'} onChange={(e) => setTags({ source: e.target.value as 'either' | 'service' | 'local' })} data-filter="tag-source">
            <option value="either">service or local</option>
            <option value="service">service only</option>
            <option value="local">local analysis only</option>
          </select>
        </label>
        <label>
          <span className="sv-filter-label">Duration (s)</span>
          <span className="row sv-tight">
            <input type="number" min={0} step="any" placeholder="min" className="sv-num" value={filters.durationS?.min ?? ''} onChange={(e) => onChange({ ...filters, durationS: { ...filters.durationS, min: numberOrUndefined(e.target.value) } })} data-filter="duration-min" />
            <input type="number" min={0} step="any" placeholder="max" className="sv-num" value={filters.durationS?.max ?? ''} onChange={(e) => onChange({ ...filters, durationS: { ...filters.durationS, max: numberOrUndefined(e.target.value) } })} data-filter="duration-max" />
          </span>
        </label>
        <label>
          <span className="sv-filter-label">Resolution</span>
          <select value={filters.minHeight ?? ''} onChange={(e) => onChange({ ...filters, minHeight: e.target.value ? Number(e.target.value) : undefined })} data-filter="min-height">
            <option value="">any</option>
            {heights.map((h) => (
              <option key={h} value={h}>
                {h}p and up
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="sv-filter-label">Folder</span>
          <select value={filters.folder ?? ''} onChange={(e) => onChange({ ...filters, folder: e.target.value || undefined })} data-filter="folder" className="sv-folder">
            <option value="">all folders</option>
            {(facets?.folders ?? []).map((f) => (
              <option key={f.path} value={f.path}>
                {f.path} ({f.clips})
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="sv-filter-label">Date</span>
          <span className="row sv-tight">
            <select value={date.field ?? 'modified'} onChange={(e) => setDate({ field: e.target.value as 'modified' | 'imported' })} data-filter="date-field">
              <option value="modified">file date</option>
              <option value="imported">imported</option>
            </select>
            <input type="date" value={dateInputValue(date.from)} onChange={(e) => setDate({ from: dateFromInput(e.target.value, false) })} data-filter="date-from" aria-label="From" />
            <input type="date" value={dateInputValue(date.to)} onChange={(e) => setDate({ to: dateFromInput(e.target.value, true) })} data-filter="date-to" aria-label="To" />
          </span>
        </label>
        <label>
          <span className="sv-filter-label">Rating</span>
          <select value={filters.rating ?? ''} onChange={(e) => onChange({ ...filters, rating: (e.target.value || undefined) as SearchFiltersIn['rating'] })} data-filter="rating">
            <option value="">any</option>
            <option value="favorite">favourites</option>
            <option value="not_rejected">hide rejected</option>
            <option value="reject">rejected</option>
            <option value="unrated">unrated</option>
          </select>
        </label>
        <label>
          <span className="sv-filter-label">Keyword</span>
          <input type="text" className="sv-num" placeholder="any" value={filters.keyword ?? ''} onChange={(e) => onChange({ ...filters, keyword: e.target.value || undefined })} data-filter="keyword" />
        </label>
        <label className="sv-check">
          <input type="checkbox" checked={collections} onChange={(e) => onCollections(e.target.checked)} data-filter="collections" />
          <span>Also search service collections</span>
        </label>
        <button type="button" className="btn" onClick={() => onChange({})} data-action="clear-filters">
          Clear filters
        </button>
      </div>
    </section>
  );
}

/** Drops empty parts so the request carries only what narrows. */
export function cleanFilters(f: SearchFiltersIn): SearchFiltersIn {
  const out: SearchFiltersIn = {};
  const t = f.tags;
  if (t && FACET_FIELDS.some((k) => t[k]?.length)) {
    const tags: Record<string, unknown> = { source: t.source ?? 'either' };
    for (const k of FACET_FIELDS) if (t[k]?.length) tags[k] = t[k];
    out.tags = tags as SearchFiltersIn['tags'];
  }
  const d = f.durationS;
  if (d && (d.min !== undefined || d.max !== undefined)) {
    if (d.min === undefined || d.max === undefined || d.min <= d.max) out.durationS = { ...(d.min !== undefined && { min: d.min }), ...(d.max !== undefined && { max: d.max }) };
  }
  if (f.minHeight !== undefined) out.minHeight = f.minHeight;
  if (f.folder) out.folder = f.folder;
  if (f.date && (f.date.from !== undefined || f.date.to !== undefined)) {
    out.date = { field: f.date.field ?? 'modified', ...(f.date.from !== undefined && { from: f.date.from }), ...(f.date.to !== undefined && { to: f.date.to }) };
  }
  if (f.clipIds?.length) out.clipIds = f.clipIds;
  if (f.rating) out.rating = f.rating;
  if (f.keyword?.trim()) out.keyword = f.keyword.trim();
  return out;
}
