import type { CatalogBackup } from '../../../../src-shared/contract/catalog';

const REASON: Record<CatalogBackup['reason'], string> = {
  daily: 'daily',
  'before-migration': 'before an upgrade',
  'before-restore': 'the catalog a restore replaced',
};

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * What a backup holds, so the one to restore is chosen by its contents and not only its date: "3 clips,
 * 12 ranges"; a file that could not be read says so (a restore checks it again and refuses it).
 */
function held(b: CatalogBackup): string {
  if (b.clips === null) return 'contents unreadable';
  return b.ranges === null ? counted(b.clips, 'clip') : `${counted(b.clips, 'clip')}, ${counted(b.ranges, 'range')}`;
}

/** "14 Nov 2026, 09:12 · daily · 3 clips, 12 ranges · 3.4 MB" */
export function describeBackup(b: CatalogBackup): string {
  const when = new Date(b.takenAt).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  const size = b.sizeBytes >= 1e6 ? `${(b.sizeBytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(b.sizeBytes / 1e3))} kB`;
  return `${when} · ${REASON[b.reason]} · ${held(b)} · ${size}`;
}
