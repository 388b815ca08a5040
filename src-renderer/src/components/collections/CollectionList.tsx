import type { ReactNode } from 'react';
import type { CollectionSummary } from '../../../../src-shared/contract/collections';
import { ProgressBar } from './ProgressBar';

export function CollectionList({ collections, selectedId, onSelect }: { collections: CollectionSummary[]; selectedId: string | null; onSelect: (id: string) => void }): ReactNode {
  if (collections.length === 0) return <div className="empty col-empty">No collections yet. Create one to send clips to the service.</div>;
  return (
    <ul className="col-list" aria-label="Collections">
      {collections.map((c) => {
        const done = c.videos ? (c.processed + c.failed) / c.videos : 0;
        return (
          <li key={c.id}>
            <button className={`col-item${c.id === selectedId ? ' selected' : ''}`} onClick={() => onSelect(c.id)} data-collection={c.id} aria-pressed={c.id === selectedId}>
              <span className="col-item-name">{c.name}</span>
              {c.description ? <span className="col-item-desc muted">{c.description}</span> : null}
              <span className="col-item-counts">
                {c.goneAt !== null && (
                  <span className="badge error" title="The service's list no longer has this collection: its videos are probably gone too. Re-attach the clips to a collection it has.">
                    Gone from the service
                  </span>
                )}
                <span className="badge">{c.videos} clip{c.videos === 1 ? '' : 's'}</span>
                {c.processed > 0 && <span className="badge ok">{c.processed} ready</span>}
                {c.inFlight > 0 && <span className="badge warn">{c.inFlight} in progress</span>}
                {c.failed > 0 && <span className="badge error">{c.failed} failed</span>}
              </span>
              {c.videos > 0 && <ProgressBar value={done} tone={c.failed ? 'error' : c.inFlight ? 'accent' : 'ok'} label={`${c.name} progress`} />}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
