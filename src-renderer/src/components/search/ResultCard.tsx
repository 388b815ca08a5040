import { useState, type ReactNode } from 'react';
import type { SearchResult, SegmentTag } from '../../../../src-shared/contract/search';
import { api } from '../../api/client';
import { cosineText, FIELD_LABEL, isWholeClip, scoreBand, SOURCE_LABEL, SOURCE_TITLE } from './format';
import { tcRange } from '../timecode-format';

function tagTitle(t: SegmentTag): string {
  const from = t.source === 'both' ? 'the service and the local analysis agree' : t.source === 'service' ? 'the service' : 'the local analysis';
  const other = t.other ? `; ${t.other.source === 'service' ? 'the service' : 'the local analysis'} said ${t.other.value}` : '';
  return `${FIELD_LABEL[t.field]}: ${t.value} (${from}${other})`;
}

/** The tags a card shows: one per field, decided between the sources in main. */
export function TagList({ tags }: { tags: readonly SegmentTag[] }): ReactNode {
  return (
    <div className="sv-tags">
      {tags.map((t) => (
        <span key={t.field} className={`sv-tag sv-tag-${t.source}${t.other ? ' sv-tag-disagree' : ''}`} title={tagTitle(t)} data-field={t.field} data-tag={t.canonical} data-other={t.other?.canonical ?? ''}>
          {t.value}
          {t.other && (
            // The sources disagree: say so on the card, not only in the tooltip.
            <span className="sv-tag-other" aria-label={`, ${t.other.source === 'service' ? 'the service' : 'the local analysis'} said ${t.other.value}`}>
              {' '}≠ {t.other.value}
            </span>
          )}
        </span>
      ))}
    </div>
  );
}

function Score({ r }: { r: SearchResult }): ReactNode {
  const band = scoreBand(r.score);
  const title =
    r.score === null
      ? 'Listed because it passes the filters (no text to rank by)'
      : `Relevance ${r.score}/100: how far this moment matches better than generic text does (50 = the floor of a match, 75 strong); raw cosine ${cosineText(r.similarity)}${r.collection ? `; the service's collection similarity ${cosineText(r.collection.similarity)}` : ''}`;
  return (
    <span className={`sv-score sv-score-${band}`} title={title} data-testid="score" data-score={r.score ?? ''}>
      {r.score === null ? 'filter match' : `${r.score}`}
    </span>
  );
}

export function ResultCard({ r, onOpen, onSimilar }: { r: SearchResult; onOpen: (r: SearchResult, at?: { inFrame: number; outFrame: number; segmentId: number | null }) => void; onSimilar: (r: SearchResult) => void }): ReactNode {
  const playable = r.clipStatus !== 'offline' && r.clipStatus !== 'missing';
  const [showMore, setShowMore] = useState(false);
  const clock = { rate: r.clipRate, timecode: r.clipTimecode };
  const wholeClip = isWholeClip(r);
  return (
    <article className={`sv-card${r.good ? '' : ' sv-card-weak'}`} data-testid="search-result" data-clip={r.clipId} data-segment={r.segmentId ?? ''} data-source={r.source} data-good={r.good}>
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
        <span className="sv-range" title="Source timecode: In to the last frame">{wholeClip ? 'whole clip' : tcRange(clock, r.inFrame, r.outFrame)}</span>
      </button>
      <div className="sv-meta">
        <div className="sv-name" title={r.clipPath}>
          {r.clipName}
        </div>
        <div className="row sv-tight sv-small">
          <Score r={r} />
          {r.height !== null && <span className="muted">{r.height}p</span>}
          {!playable && <span className="badge warn">{r.clipStatus}</span>}
          {r.segmentId !== null && (
            <button type="button" className="sv-link" onClick={() => onSimilar(r)} data-action="find-similar" title="Segments that look like this one (works offline)">
              similar
            </button>
          )}
        </div>
        <TagList tags={r.tags} />
        {r.otherLocations.length > 0 && (
          <div className="muted sv-small" data-testid="other-locations" title={r.otherLocations.map((o) => o.clipPath).join('\n')}>
            same file also at {r.otherLocations.length === 1 ? r.otherLocations[0]!.clipPath : `${r.otherLocations.length} other places`}
          </div>
        )}
        {r.more.length > 0 && (
          <div className="sv-more">
            <button type="button" className="sv-link" onClick={() => setShowMore(!showMore)} aria-expanded={showMore} data-action="more-in-clip">
              {showMore ? 'hide' : `${r.more.length} more in this clip`}
            </button>
            {showMore && (
              <ul className="sv-more-list">
                {r.more.map((m) => (
                  <li key={`${m.segmentId}-${m.inFrame}`}>
                    <button type="button" className="sv-link" onClick={() => onOpen(r, m)} data-action="open-more">
                      {tcRange(clock, m.inFrame, m.outFrame)}
                    </button>
                    {m.score !== null && <span className={`sv-score sv-score-${scoreBand(m.score)}`}>{Math.round(m.score)}</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
