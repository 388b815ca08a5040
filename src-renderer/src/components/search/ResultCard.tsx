import type { ReactNode } from 'react';
import type { SearchResult } from '../../../../src-shared/contract/search';
import { api } from '../../api/client';
import { FIELD_LABEL, percent, primaryTags, SOURCE_LABEL, SOURCE_TITLE, tagText, timeRange } from './format';

export function ResultCard({ r, onOpen, onSimilar }: { r: SearchResult; onOpen: (r: SearchResult) => void; onSimilar: (r: SearchResult) => void }): ReactNode {
  const playable = r.clipStatus !== 'offline' && r.clipStatus !== 'missing';
  return (
    <article className="sv-card" data-testid="search-result" data-clip={r.clipId} data-segment={r.segmentId ?? ''} data-source={r.source}>
      <button type="button" className="sv-thumb" onClick={() => onOpen(r)} title={playable ? 'Play this moment' : `The clip is ${r.clipStatus}`} data-action="open-result">
        {r.thumb ? <img src={api.mediaUrl({ kind: 'thumb', path: r.thumb.path })} alt="" loading="lazy" /> : <span className="sv-nothumb">no preview</span>}
        <span className="sv-rank">#{r.rank}</span>
        <span className="sv-badges">
          {r.sources.map((s) => (
            <span key={s} className={`sv-source sv-source-${s}`} title={SOURCE_TITLE[s]} data-badge={s}>
              {SOURCE_LABEL[s]}
            </span>
          ))}
        </span>
        <span className="sv-range">{r.segmentId === null ? 'whole clip' : timeRange(r.startS, r.endS)}</span>
      </button>
      <div className="sv-meta">
        <div className="sv-name" title={r.clipPath}>
          {r.clipName}
        </div>
        <div className="row sv-tight sv-small">
          <span className="sv-sim" title={r.source === 'collection' ? 'The service’s collection similarity' : 'Cosine similarity in the local index'} data-testid="similarity">
            {percent(r.similarity)}
          </span>
          {r.height !== null && <span className="muted">{r.height}p</span>}
          {!playable && <span className="badge warn">{r.clipStatus}</span>}
          {r.segmentId !== null && (
            <button type="button" className="sv-link" onClick={() => onSimilar(r)} data-action="find-similar" title="Segments that look like this one (works offline)">
              similar
            </button>
          )}
        </div>
        <div className="sv-tags">
          {primaryTags(r.tags).map((t) => (
            <span key={t.field} className={`sv-tag sv-tag-${t.source}`} title={`${FIELD_LABEL[t.field]} (${t.source})`}>
              {tagText(t.value)}
            </span>
          ))}
        </div>
      </div>
    </article>
  );
}
