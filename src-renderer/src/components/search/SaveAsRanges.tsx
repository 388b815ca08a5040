import { useState, type ReactNode } from 'react';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** "Save N as ranges": the moments shown become saved ranges of their clips (the Selects view lists them), and the button says so. */
export function SaveAsRanges({ moments }: { moments: { clipId: number; inFrame: number; outFrame: number }[] }): ReactNode {
  const [status, setStatus] = useState<string | null>(null);
  const n = moments.length;
  if (n === 0) return null;
  const save = async () => {
    try {
      const r = await api.call('selects.saveMoments', { moments: moments.slice(0, 500) });
      const skipped = r.skipped.length ? ` · ${r.skipped.length} skipped: ${r.skipped[0]!.reason}` : '';
      setStatus(`Saved ${r.saved.length} range${r.saved.length === 1 ? '' : 's'}: see Selects${skipped}`);
    } catch (e) {
      setStatus(`Saving ranges failed: ${(e as AppError).message}`);
    }
  };
  return (
    <span className="row">
      <button type="button" className="btn" onClick={() => void save()} data-action="save-as-ranges" title="Each result's moment becomes a saved range of its clip">
        Save {n} as ranges
      </button>
      {status && (
        <span className="muted sv-small" role="status" data-testid="save-ranges-status">
          {status}
        </span>
      )}
    </span>
  );
}
