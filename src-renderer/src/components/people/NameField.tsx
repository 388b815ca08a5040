import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { nameProblem } from './people-format';

/**
 * A person's name, typed in place: Enter saves, Esc puts back what was there. What is wrong with
 * the name (empty, too long, someone else's) is said next to the field, not in a dialog.
 */
export function NameField({ personId, name, label, onSaved }: { personId: number; name: string | null; label: string; onSaved: () => void }): ReactNode {
  const [draft, setDraft] = useState(name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Another window or a merge renamed the person: show the name main has.
  useEffect(() => setDraft(name ?? ''), [name]);
  const errorId = `pp-name-error-${personId}`;

  const save = () => {
    const problem = nameProblem(draft);
    if (problem) return setError(problem);
    setBusy(true);
    api.call('people.name', { personId, name: draft }).then(
      () => {
        setBusy(false);
        setError(null);
        onSaved();
      },
      (e: AppError) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };

  return (
    <div className="pp-name">
      <input
        type="text"
        className="pp-name-input"
        value={draft}
        placeholder={name ? undefined : 'Type a name, Enter to save'}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        disabled={busy}
        data-field="person-name"
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setDraft(name ?? '');
            setError(null);
          }
        }}
      />
      {error && (
        <span id={errorId} className="pp-name-error error-text" role="alert" data-testid="name-error">
          {error}
        </span>
      )}
    </div>
  );
}
