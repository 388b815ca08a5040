import { useState, type ReactNode } from 'react';
import type { SegmentTag } from '../../../../src-shared/contract/search';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { formatBytes } from '../library/format';
import { FIELD_LABEL } from '../search/format';

/** Sends In to Out to the service's tagging now and shows what it said, without waiting for indexing. */
export function TagRangeNow({ clipId, startS, endS }: { clipId: number; startS: number | null; endS: number | null }): ReactNode {
  const [state, setState] = useState<{ busy: boolean; tags: SegmentTag[] | null; note: string | null }>({ busy: false, tags: null, note: null });
  const run = async () => {
    if (startS === null || endS === null || state.busy) return;
    setState({ busy: true, tags: null, note: 'Asking the service…' });
    try {
      const r = await api.call('viewer.tagRange', { clipId, startS, endS });
      // A clip added by URL: main read the range from its address first; say how much.
      const read = r.bytesRead === null ? '' : `; ${formatBytes(r.bytesRead)} read from its address`;
      setState({ busy: false, tags: r.tags, note: `${r.via === 'base64' ? 'sent as a file' : 'sent as tensors'} (${Math.round(r.bytes / 1024)} KB)${read}` });
    } catch (e) {
      setState({ busy: false, tags: null, note: (e as AppError).message });
    }
  };
  return (
    <span className="tag-range-now row">
      {/* Busy is aria-disabled, not disabled: a disabled button drops the keyboard focus, and the viewer's keys with it. */}
      <button
        type="button"
        className="btn"
        disabled={startS === null}
        aria-disabled={state.busy}
        aria-busy={state.busy}
        onClick={() => void run()}
        data-action="tag-range"
        title="Send In to Out to the service's tagging and show the answer"
      >
        {state.busy ? 'Tagging…' : 'Tag this range now'}
      </button>
      {state.tags && (
        <span className="row" data-testid="tag-range-result">
          {state.tags.length === 0 && <span className="muted">no tags in the answer</span>}
          {state.tags.map((t) => (
            <span key={t.field} className="sv-tag" data-field={t.field}>
              <span className="muted">{FIELD_LABEL[t.field]}</span> {t.value}
            </span>
          ))}
        </span>
      )}
      {state.note && <span className="muted sv-small" role="status">{state.note}</span>}
    </span>
  );
}
