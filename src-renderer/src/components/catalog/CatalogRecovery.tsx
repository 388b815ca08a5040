import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CatalogHealth } from '../../../../src-shared/contract/catalog';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { BackupList } from './BackupList';
import { describeBackup } from './format';
import './catalog.css';

/**
 * In place of the app when the catalog cannot be read: what is damaged (the file, SQLite's words),
 * that the footage is safe, and the way out: the newest backup in one click, an older one, or a
 * new empty catalog (the damaged file is kept).
 */
export function CatalogRecovery({ health, onChanged }: { health: CatalogHealth; onChanged: (h: CatalogHealth) => void }): ReactNode {
  const [confirmNew, setConfirmNew] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const newest = health.backups[0];
  const startNew = async () => {
    setError(null);
    try {
      onChanged(await api.call('catalog.startNew', {}));
    } catch (e) {
      setError((e as AppError).message);
    }
  };
  return (
    <main className="recovery" data-view="catalog-recovery">
      <div className="recovery-card card" role="alert">
        <h1 ref={heading} tabIndex={-1}>
          The catalog cannot be read
        </h1>
        <p data-testid="damage-message">{health.message}</p>
        {newest ? (
          <>
            <p>
              Restore the newest backup, taken <strong>{describeBackup(newest)}</strong>: clips, shots, tags and marks come back as they were then. Work done since is redone by indexing; marks saved since are lost.
            </p>
            <BackupList health={health} onRestored={onChanged} primaryFirst />
          </>
        ) : (
          <p>There is no backup of this catalog yet.</p>
        )}
        <div className="row recovery-new">
          {!confirmNew ? (
            <button className="btn" onClick={() => setConfirmNew(true)} data-action="start-new">
              Start a new, empty catalog…
            </button>
          ) : (
            <>
              <span>The damaged file is kept beside the new one; your footage is not touched. Import your folders again afterwards.</span>
              <button className="btn" onClick={() => void startNew()} data-action="confirm-start-new" autoFocus>
                Start a new catalog
              </button>
              <button className="btn link" onClick={() => setConfirmNew(false)}>
                Cancel
              </button>
            </>
          )}
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
      </div>
    </main>
  );
}
