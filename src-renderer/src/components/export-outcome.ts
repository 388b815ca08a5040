import type { ExportFile } from '../../../src-shared/contract/export';

/** What became of an export, as the Export menu reports it. */
export type ExportOutcome =
  | { kind: 'downloaded'; files: ExportFile[]; items: number; skipped: { reason: string }[]; notes: string[] }
  | { kind: 'saved'; paths: string[]; items: number; skipped: { reason: string }[]; notes: string[] }
  | { kind: 'cancelled'; paths: string[]; items: number; skipped: { reason: string }[]; notes: string[] }
  | { kind: 'failed'; message: string };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const quoted = (names: string[]) => names.map((n) => `“${n}”`).join(', ');

/**
 * The sentence that tells the editor where the export went and what it holds, and the details
 * under it (items left out, rates split or conformed). A browser download lands in the browser's
 * downloads folder, which the page cannot name: the sentence says so.
 */
export function exportSummary(o: ExportOutcome): { text: string; details: string[] } {
  if (o.kind === 'failed') return { text: `Export failed: ${o.message}`, details: [] };
  const details = [...(o.skipped.length > 0 ? [`${plural(o.skipped.length, 'clip')} left out: ${o.skipped[0]!.reason}`] : []), ...o.notes];
  const items = plural(o.items, 'item');
  switch (o.kind) {
    case 'downloaded':
      return { text: `Downloaded ${quoted(o.files.map((f) => f.fileName))} (${items}) to this browser's downloads folder.`, details };
    case 'saved':
      return { text: `Saved ${o.paths.length === 1 ? o.paths[0] : `${o.paths.length} files: ${o.paths.join(', ')}`} (${items}).`, details };
    case 'cancelled':
      return { text: 'Not saved: the save dialog was closed.', details: [] };
  }
}
