import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ImportProgress } from '../../../../src-shared/contract/library';
import { api } from '../../api/client';
import { ChooseFoldersButton } from './ChooseFoldersButton';
import { typedPathSchema } from '../../../../src-shared/contract/safe-strings';

const PHASE: Record<ImportProgress['phase'], string> = {
  scanning: 'Scanning',
  cataloguing: 'Cataloguing',
  done: 'Done',
};

/**
 * Ways in: drop files/folders anywhere on the view (Electron gives real paths through
 * api.pathForFile), the folder dialog when there is one, or a typed path (the web transport has no
 * file paths, so it is the way there).
 */
export function ImportBar({ running, progress, onImport }: {
  running: boolean;
  progress: ImportProgress | null;
  onImport: (paths: string[]) => void;
}): ReactNode {
  const [text, setText] = useState('');
  const [typo, setTypo] = useState<string | null>(null);
  const submit = () => {
    const paths = text
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    // Said here, in a sentence, rather than as the contract's refusal of the call.
    const relative = paths.find((p) => !typedPathSchema.safeParse(p).success);
    setTypo(relative === undefined ? null : `“${relative}” is not a full path: start it with / (or ~/ for your home folder).`);
    if (paths.length && relative === undefined) onImport(paths);
  };
  return (
    <div className="import-bar">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <input
          type="text"
          className="import-path"
          placeholder="Import folder path, e.g. /Volumes/CARD_A/DCIM"
          aria-label="Import folder path"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setTypo(null);
          }}
          aria-invalid={typo !== null}
          aria-describedby={typo ? 'import-path-error' : undefined}
          disabled={running}
        />
        <button type="submit" className="btn primary" disabled={running || !text.trim()} data-testid="import-submit">
          Import
        </button>
        <ChooseFoldersButton disabled={running} onPicked={(picked) => onImport(picked)}>
          Choose folders…
        </ChooseFoldersButton>
        <span className="muted drop-hint">or drop files and folders anywhere here</span>
      </form>
      {typo && (
        <div className="error-text" id="import-path-error" role="alert" data-testid="import-path-error">
          {typo}
        </div>
      )}
      {(running || progress) && (
        <div className="import-progress" role="status">
          <span className="spinner" aria-hidden />
          {progress ? `${PHASE[progress.phase]}: ${progress.done}${progress.total ? ` / ${progress.total}` : ''}` : 'Importing…'}
          {progress && progress.total > 0 && (
            <progress max={progress.total} value={progress.done} />
          )}
        </div>
      )}
    </div>
  );
}

/** Wraps the view: highlights while files are dragged over it, hands their paths over on drop. */
export function DropZone({ onPaths, onNoPaths, children }: {
  onPaths: (paths: string[]) => void;
  onNoPaths: (count: number) => void;
  children: ReactNode;
}): ReactNode {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  useEffect(() => {
    // Dropping outside the zone must not navigate the window to the file.
    const stop = (e: DragEvent) => e.preventDefault();
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
  return (
    <div
      className={`drop-zone${over ? ' over' : ''}`}
      onDragEnter={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        depth.current++;
        setOver(true);
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
        }
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = Array.from(e.dataTransfer.files);
        if (files.length === 0) return;
        const paths = api.pathForFile ? files.map((f) => api.pathForFile!(f)).filter(Boolean) : [];
        if (paths.length) onPaths(paths);
        else onNoPaths(files.length);
      }}
      data-testid="drop-zone"
    >
      {children}
      {over && (
        <div className="drop-overlay" aria-hidden>
          <div>Drop to import</div>
        </div>
      )}
    </div>
  );
}
