import { useState, type ReactNode } from 'react';
import { EXPORT_FORMAT_LABEL, EXPORT_FORMATS, type ExportFile, type ExportFormatId } from '../../../src-shared/contract/export';
import type { ArgsIn } from '../../../src-shared/contract';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { saveTextFile } from '../api/save-file';
import { useHandOffCapabilities } from './HandOff';
import { exportSummary, type ExportOutcome } from './export-outcome';
import { planLine, useExportPlan } from './use-export-plan';

type Selection = ArgsIn<'export.build'>['selection'];

/**
 * Format choice + Export button. In the desktop app main asks where to save in the system's
 * dialog and says where the files went; in the browser the files are downloads, and the result
 * says so and keeps them to download again. `title` names the files after what they hold.
 */
export function ExportMenu({ selection, title, label = 'Export', disabled }: { selection: Selection; title?: string; label?: string; disabled?: boolean }): ReactNode {
  const caps = useHandOffCapabilities();
  const [format, setFormat] = useState<ExportFormatId>(() => (localStorage.getItem('reelscout.exportFormat') as ExportFormatId | null) ?? 'xmeml');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const plan = useExportPlan(format, selection, title, !disabled);
  const download = (files: ExportFile[]) => files.forEach((f) => saveTextFile(f.fileName, f.mime, f.text));
  const run = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      if (caps?.desktop) {
        const r = await api.call('export.save', { format, selection, title });
        setOutcome({ kind: r.savedTo.length > 0 ? 'saved' : 'cancelled', paths: r.savedTo, items: r.items, skipped: r.skipped, notes: r.notes });
      } else {
        const r = await api.call('export.build', { format, selection, title });
        download(r.files);
        setOutcome({ kind: 'downloaded', files: r.files, items: r.items, skipped: r.skipped, notes: r.notes });
      }
    } catch (e) {
      setOutcome({ kind: 'failed', message: (e as AppError).message });
    } finally {
      setBusy(false);
    }
  };
  const summary = outcome ? exportSummary(outcome) : null;
  return (
    <span className="export-menu row">
      <select
        aria-label="Export format"
        value={format}
        onChange={(e) => {
          setFormat(e.target.value as ExportFormatId);
          localStorage.setItem('reelscout.exportFormat', e.target.value);
        }}
        data-testid="export-format"
      >
        {EXPORT_FORMATS.map((f) => (
          <option key={f} value={f}>
            {EXPORT_FORMAT_LABEL[f]}
          </option>
        ))}
      </select>
      <button type="button" className="btn" onClick={() => void run()} disabled={disabled} aria-busy={busy} data-action="export">
        {busy ? 'Exporting…' : label}
      </button>
      {plan && !outcome && (
        <span className="muted export-plan" data-testid="export-plan" title={[...plan.fileNames, ...plan.notes, ...plan.skipped.map((s) => s.reason)].join('\n')}>
          {planLine(plan)}
          {plan.notes.map((n) => (
            <span key={n} className="export-note">
              {n}
            </span>
          ))}
        </span>
      )}
      {summary && outcome && (
        <span className={`export-result${outcome.kind === 'failed' ? ' error-text' : ''}`} data-testid="export-status" role="status">
          <span>{summary.text}</span>
          {outcome.kind === 'downloaded' && (
            <button type="button" className="btn link" onClick={() => download(outcome.files)} data-action="download-again" title="The same file(s) again, as downloads">
              Download again
            </button>
          )}
          {summary.details.map((d) => (
            <span key={d} className="muted export-note">
              {d}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
