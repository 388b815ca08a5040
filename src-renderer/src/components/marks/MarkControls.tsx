import { useState, type ReactNode } from 'react';
import type { Rating } from '../../../../src-shared/contract/marks';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** Favourite / reject toggles, as Final Cut's F and Delete: a second click clears. */
export function RatingButtons({ rating, onRate, label }: { rating: Rating; onRate: (r: Rating) => void; label: string }): ReactNode {
  return (
    <span className="rating-buttons" data-rating={rating ?? 'none'}>
      <button
        type="button"
        className={`btn rating-fav${rating === 'favorite' ? ' on' : ''}`}
        aria-pressed={rating === 'favorite'}
        aria-label={`Favourite ${label}`}
        title="Favourite"
        onClick={() => onRate(rating === 'favorite' ? null : 'favorite')}
        data-action="favorite"
      >
        ★
      </button>
      <button
        type="button"
        className={`btn rating-rej${rating === 'reject' ? ' on' : ''}`}
        aria-pressed={rating === 'reject'}
        aria-label={`Reject ${label}`}
        title="Reject"
        onClick={() => onRate(rating === 'reject' ? null : 'reject')}
        data-action="reject"
      >
        ⊘
      </button>
    </span>
  );
}

/** Keywords as removable chips plus a field that adds one (Enter; commas add several). */
export function KeywordEditor({ keywords, targets, label }: { keywords: string[]; targets: { clipIds?: number[]; rangeIds?: number[] }; label: string }): ReactNode {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    const words = text.split(',').map((w) => w.trim()).filter(Boolean);
    if (words.length === 0) return;
    try {
      await api.call('marks.addKeywords', { ...targets, keywords: words });
      setText('');
      setError(null);
    } catch (e) {
      setError((e as AppError).message);
    }
  };
  return (
    <span className="keyword-editor" data-testid="keywords">
      {keywords.map((k) => (
        <span key={k} className="keyword-chip">
          {k}
          <button type="button" className="chip-x" aria-label={`Remove keyword ${k} from ${label}`} onClick={() => void api.call('marks.removeKeyword', { ...targets, keyword: k })}>
            ×
          </button>
        </span>
      ))}
      <input
        type="text"
        className="keyword-input"
        placeholder="+ keyword"
        aria-label={`Add keyword to ${label}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void add();
          }
        }}
      />
      {error && <span className="error-text sv-small">{error}</span>}
    </span>
  );
}
