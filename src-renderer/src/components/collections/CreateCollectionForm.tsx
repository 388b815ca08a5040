import { useState, type FormEvent, type ReactNode } from 'react';
import type { CollectionSummary } from '../../../../src-shared/contract/collections';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

export function CreateCollectionForm({ onCreated }: { onCreated: (c: CollectionSummary) => void }): ReactNode {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const c = await api.call('collections.create', { name: name.trim(), description: description.trim() });
      setName('');
      setDescription('');
      onCreated(c);
    } catch (err) {
      const a = err as AppError;
      setError(`${a.kind ?? 'error'}: ${a.message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card col-create" onSubmit={submit} aria-label="New collection">
      <h3>New collection</h3>
      <input type="text" id="collection-name" placeholder="Name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      <input type="text" id="collection-description" placeholder="Description (optional)" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
      <button className="btn primary" type="submit" disabled={busy || !name.trim()} data-action="create-collection">
        {busy ? 'Creating…' : 'Create'}
      </button>
      {error && (
        <div className="error-text col-small" role="alert" data-testid="create-error">
          {error}
        </div>
      )}
    </form>
  );
}
