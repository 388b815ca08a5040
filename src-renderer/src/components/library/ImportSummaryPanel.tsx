import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ImportSummary } from '../../../../src-shared/contract/library';

const CODE_LABEL: Record<string, string> = {
  hidden: 'Hidden',
  system: 'System',
  symlink_loop: 'Link loop',
  broken_symlink: 'Broken link',
  unreadable: 'Unreadable',
  not_regular: 'Not a file',
  not_video: 'Not a video',
  vanished: 'Gone',
  error: 'Failed',
};

/** What the last import did: counts, and each skipped or failed file with its reason. */
/** The summary's headline: the editor's import, or the team's clips found on this workstation's drives. */
function title(summary: ImportSummary): string {
  if (summary.origin === 'team') return summary.state === 'done' ? "From the team: clips other seats indexed, found on this workstation's drives" : `From the team: ${summary.state}`;
  if (summary.state !== 'done') return `Import ${summary.state}`;
  // The cards still say "Reading" until the pipeline's probe has read them: so does the headline.
  return summary.reading > 0 ? `Imported · reading ${summary.reading} clip${summary.reading === 1 ? '' : 's'}…` : 'Import finished';
}

/** How long a summary with nothing to act on stays once every clip is read: news, not a notice. */
export const QUIET_SUMMARY_MS = 15_000;

/** Whether the summary holds something the editor must act on (it then stays until dismissed). */
function needsAction(summary: ImportSummary): boolean {
  return summary.state !== 'done' || summary.error !== null || summary.failed > 0 || summary.missing > 0 || summary.issues.some((i) => i.code !== 'hidden' && i.code !== 'system');
}

export function ImportSummaryPanel({ summary, onDismiss }: { summary: ImportSummary; onDismiss: () => void }): ReactNode {
  const [open, setOpen] = useState(summary.failed > 0);
  // ffprobe's verdicts arrive after the import (the pipeline probes): the list opens when the first does.
  const anyFailed = summary.failed > 0;
  useEffect(() => {
    if (anyFailed) setOpen(true);
  }, [summary.importId, anyFailed]);
  const parts: [string, number, string?][] = [
    ['added', summary.added],
    ['updated', summary.updated],
    ['unchanged', summary.unchanged],
    ['moved', summary.relocated],
    ['missing', summary.missing, 'warn'],
    ['failed', summary.failed, 'error'],
    ['skipped', summary.skipped, 'warn'],
    ['not video', summary.ignored],
  ];
  const settled = summary.reading === 0 && !needsAction(summary);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  useEffect(() => {
    if (!settled) return;
    const t = setTimeout(() => dismiss.current(), QUIET_SUMMARY_MS);
    return () => clearTimeout(t);
  }, [settled]);
  const problems = summary.issues.filter((i) => i.code !== 'hidden' && i.code !== 'system');
  const quiet = summary.issues.length - problems.length;
  return (
    <section className="import-summary card" data-testid="import-summary" aria-label="Import summary">
      <div className="row">
        <strong>{title(summary)}</strong>
        {parts
          .filter(([, n]) => n > 0)
          .map(([label, n, tone]) => (
            <span key={label} className={`badge ${tone ?? ''}`} data-count={label}>
              {n} {label}
            </span>
          ))}
        {summary.error && <span className="error-text">{summary.error}</span>}
        <span className="spacer" />
        {summary.issues.length > 0 && (
          <button type="button" className="btn link" onClick={() => setOpen(!open)}>
            {open ? 'Hide details' : `Details (${summary.issues.length}${summary.issuesTruncated ? '+' : ''})`}
          </button>
        )}
        <button type="button" className="btn link" onClick={onDismiss} aria-label="Dismiss import summary">
          ✕
        </button>
      </div>
      {open && (
        <ul className="issue-list">
          {problems.map((i) => (
            <li key={`${i.code}:${i.path}`}>
              <span className={`badge ${i.code === 'error' ? 'error' : 'warn'}`}>{CODE_LABEL[i.code] ?? i.code}</span>
              <span className="issue-path">{i.path}</span>
              <span className="muted">{i.reason}</span>
            </li>
          ))}
          {quiet > 0 && <li className="muted">{quiet} hidden or system entr{quiet === 1 ? 'y' : 'ies'} skipped</li>}
        </ul>
      )}
    </section>
  );
}
