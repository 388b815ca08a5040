import type { CatalogBackup } from '../../../../src-shared/contract/catalog';

const REASON: Record<CatalogBackup['reason'], string> = {
  daily: 'daily',
  'before-migration': 'before an upgrade',
  'before-restore': 'the catalog a restore replaced',
};

/** "14 Nov 2026, 09:12 · daily · 3.4 MB" */
export function describeBackup(b: CatalogBackup): string {
  const when = new Date(b.takenAt).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  const size = b.sizeBytes >= 1e6 ? `${(b.sizeBytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(b.sizeBytes / 1e3))} kB`;
  return `${when} · ${REASON[b.reason]} · ${size}`;
}
