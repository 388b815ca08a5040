import { useState, type ReactNode } from 'react';
import type { CatalogHealth } from '../../../../src-shared/contract/catalog';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { describeBackup } from './format';

/**
 * The catalog's backups, newest first, each restored with one click (the catalog it replaces is
 * kept as a backup of its own, or beside itself when damaged). Over a catalog that works, `confirm`
 * asks once more before replacing it. `onRestored` gets the new health.
 */
export function BackupList({ health, onRestored, primaryFirst, confirm }: { health: CatalogHealth; onRestored: (h: CatalogHealth) => void; primaryFirst?: boolean; confirm?: boolean }): ReactNode {
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (health.backups.length === 0) return <p className="muted" data-testid="no-backups">No backup yet: the first is taken once clips are catalogued, then one after each day's work, and one before each upgrade of the catalog.</p>;
  const restore = async (id: string) => {
    setBusy(id);
    setAsking(null);
    setError(null);
    try {
      onRestored(await api.call('catalog.restore', { backupId: id }));
    } catch (e) {
      setError((e as AppError).message);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="backup-list">
      <ul aria-label="Catalog backups">
        {health.backups.map((b, i) => (
          <li key={b.id} data-backup={b.id}>
            <span>{describeBackup(b)}</span>
            {asking === b.id ? (
              <span className="row">
                <span>Replace the catalog with this backup?</span>
                <button className="btn primary" onClick={() => void restore(b.id)} data-action="confirm-restore" autoFocus>
                  Restore
                </button>
                <button className="btn link" onClick={() => setAsking(null)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                className={primaryFirst && i === 0 ? 'btn primary' : 'btn'}
                disabled={busy !== null}
                onClick={() => (confirm ? setAsking(b.id) : void restore(b.id))}
                data-action="restore-backup"
              >
                {busy === b.id ? 'Restoring…' : 'Restore'}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
