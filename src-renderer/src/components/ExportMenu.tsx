import { useState, type ReactNode } from 'react';
import { EXPORT_FORMAT_LABEL, EXPORT_FORMATS, type ExportFormatId } from '../../../src-shared/contract/export';
import type { ArgsIn } from '../../../src-shared/contract';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { saveTextFile } from '../api/save-file';

type Selection = ArgsIn<'export.build'>['selection'];

/** Format choice + Export button: builds the file in main and saves it; remembers the last format. */
export function ExportMenu({ selection, title, label = 'Export', disabled }: { selection: Selection; title?: string; label?: string; disabled?: boolean }): ReactNode {
  const [format, setFormat] = useState<ExportFormatId>(() => (localStorage.getItem('reelscout.exportFormat') as ExportFormatId | null) ?? 'xmeml');
  const [status, setStatus] = useState<string | null>(null);
  const run = async () => {
    setStatus('Exporting…');
    try {
      const r = await api.call('export.build', { format, selection, title });
      saveTextFile(r.fileName, r.mime, r.text);
      setStatus(`${r.fileName}: ${r.items} item${r.items === 1 ? '' : 's'}${r.skipped.length ? `, ${r.skipped.length} left out (${r.skipped[0]!.reason})` : ''}`);
    } catch (e) {
      setStatus(`Export failed: ${(e as AppError).message}`);
    }
  };
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
      <button type="button" className="btn" onClick={() => void run()} disabled={disabled} data-action="export">
        {label}
      </button>
      {status && (
        <span className="muted export-status" data-testid="export-status" role="status">
          {status}
        </span>
      )}
    </span>
  );
}
