import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ArgsIn, MethodName } from '../../../../src-shared/contract';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** Another person a choice can name (the merge picker, Move to…). */
export interface PersonChoice {
  id: number;
  label: string;
}

/** A contract call whose failure is said in the row (the view reads people again on success). */
export function useRowCall(onDone: () => void): { run: <M extends MethodName>(m: M, args: ArgsIn<M>) => Promise<boolean>; error: string | null; busy: boolean } {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = <M extends MethodName>(m: M, args: ArgsIn<M>) => {
    setBusy(true);
    return api.call(m, args).then(
      () => {
        setBusy(false);
        setError(null);
        onDone();
        return true;
      },
      (e: AppError) => {
        setBusy(false);
        setError(e.message);
        return false;
      },
    );
  };
  return { run, error, busy };
}

/** A picker of the other people and a button: "Merge into…", "Move to…". The person itself is never offered. */
export function PersonPicker({ choices, label, action, disabled, onPick }: { choices: readonly PersonChoice[]; label: string; action: string; disabled?: boolean; onPick: (id: number) => void }): ReactNode {
  const [to, setTo] = useState<number | ''>('');
  // The chosen person merged away or forgotten meanwhile: nothing is chosen.
  const chosen = choices.some((c) => c.id === to) ? to : '';
  return (
    <span className="pp-picker">
      <select aria-label={label} value={chosen} onChange={(e) => setTo(e.target.value ? Number(e.target.value) : '')} disabled={disabled || choices.length === 0} data-field={action}>
        <option value="">{label}</option>
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
      <button type="button" className="btn" disabled={disabled || chosen === ''} onClick={() => chosen !== '' && onPick(chosen)} data-action={action}>
        {action === 'merge' ? 'Merge' : 'Move'}
      </button>
    </span>
  );
}

/**
 * "Forget this person", said in full before it is done: what is deleted, what stays. The focus
 * starts on Cancel, so Enter pressed too soon deletes nothing.
 */
export function ForgetConfirm({ label, faces, onForget, onCancel }: { label: string; faces: number; onForget: () => void; onCancel: () => void }): ReactNode {
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="pp-forget" role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} data-testid="forget-confirm" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <strong id={`${id}-title`}>Forget {label}?</strong>
      <p id={`${id}-text`}>
        This deletes the face prints of {faces} face{faces === 1 ? '' : 's'} (what recognises this person), the name and every correction made for them. These faces are never grouped
        again. Your clips, ranges and notes stay.
      </p>
      <div className="row">
        <button type="button" className="btn danger" onClick={onForget} data-action="forget-confirm">
          Forget {label}
        </button>
        <button type="button" className="btn" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
