import type { ReactNode } from 'react';
import type { SegmentTag } from '../../../../src-shared/contract/search';
import { FIELD_LABEL } from '../search/format';
import type { OverlayPosition } from './overlay';

/** The tags of the span being shown, over the picture in the corner chosen: the winning source's value, the other in brackets. */
export function TagOverlay({ tags, spanLabel, position }: { tags: SegmentTag[]; spanLabel: string; position: OverlayPosition }): ReactNode {
  return (
    <div className={`sv-overlay sv-overlay-${position}`} data-testid="player-tags" data-span={spanLabel} data-position={position}>
      <div className="sv-overlay-span muted">{spanLabel}</div>
      {tags.length === 0 && <div className="muted sv-small">no tags for this shot yet</div>}
      {tags.map((t) => (
        <div key={t.field} className="sv-overlay-row">
          <span className="sv-overlay-field">{FIELD_LABEL[t.field]}</span>
          <span className={`sv-tag sv-tag-${t.source}`} data-tag-source={t.source} data-field={t.field}>
            {t.value}
            <span className="sv-tag-src">
              {t.source === 'both' ? 'service + local' : t.source}
              {t.confidence !== null ? ` ${Math.round(t.confidence * 100)}%` : ''}
            </span>
          </span>
          {t.other && (
            <span className="sv-tag-other muted" title={`${t.other.source} said ${t.other.value}`}>
              ({t.other.source}: {t.other.value})
            </span>
          )}
        </div>
      ))}
    </div>
  );
}
