import { useState, type ReactNode } from 'react';
import { typedPathSchema } from '../../../../src-shared/contract/safe-strings';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { ChooseFoldersButton } from '../library/ChooseFoldersButton';

/**
 * Relink for a team clip whose file is not on this workstation (an offline entry): the editor points
 * at their own copy, anywhere, and the library's import takes it (a copy with the clip's content is
 * that clip moved: its marks, shots and results stay). The folder dialog where there is one, a typed
 * path otherwise (the web transport has no file paths).
 */
export function RelinkCopy({ share, onRelinked }: { share: string; onRelinked: () => void }): ReactNode {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const relink = async (paths: string[]) => {
    setBusy(true);
    setSaid(null);
    try {
      const done = await api.call('library.import', { paths });
      if (done.relocated > 0) onRelinked();
      else setSaid(`No copy of this clip there (the same content is needed): ${paths.join(', ')}`);
    } catch (e) {
      setSaid((e as AppError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="viewer-relink row"
      data-testid="viewer-relink"
      onSubmit={(e) => {
        e.preventDefault();
        const path = text.trim();
        if (!typedPathSchema.safeParse(path).success) setSaid(`“${path}” is not a full path: start it with / (or ~/ for your home folder).`);
        else void relink([path]);
      }}
    >
      <label htmlFor="viewer-relink-path">Not on “{share}” here? Relink it to your copy (the file or its folder):</label>
      <input id="viewer-relink-path" type="text" className="import-path" placeholder="/path/to/your/copy or its folder" value={text} onChange={(e) => setText(e.target.value)} disabled={busy} />
      <button type="submit" className="btn primary" disabled={busy || !text.trim()} data-action="relink">
        Relink
      </button>
      <ChooseFoldersButton disabled={busy} onPicked={(picked) => void relink(picked)}>
          Choose folder…
        </ChooseFoldersButton>
      {said && (
        <div className="error-text sv-small" role="alert" data-testid="viewer-relink-said">
          {said}
        </div>
      )}
    </form>
  );
}
