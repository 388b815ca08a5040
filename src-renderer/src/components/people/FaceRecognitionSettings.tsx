import { useState, type ReactNode } from 'react';
import type { Preferences, SettingsView } from '../../../../src-shared/contract/settings';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/**
 * Settings' face recognition: whether indexing also makes the faces' identity embeddings that
 * finding people by name needs, and what that keeps where. Saved at once, like the proxies.
 */
export function FaceRecognitionSettings({ preferences, onSaved }: { preferences: Preferences; onSaved: (s: SettingsView) => void }): ReactNode {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (faceRecognition: boolean) => {
    try {
      onSaved(await api.call('settings.update', { faceRecognition }));
      setStatus({ ok: true, text: 'Saved' });
    } catch (e) {
      setStatus({ ok: false, text: (e as AppError).message });
    }
  };
  return (
    <section className="card" data-testid="face-recognition-settings">
      <h3 style={{ marginTop: 0 }}>Face recognition</h3>
      <label className="row">
        <input type="checkbox" checked={preferences.faceRecognition} onChange={(e) => void save(e.target.checked)} data-testid="face-recognition" />
        Recognise faces while clips are indexed, to find people by name
      </label>
      <p className="muted sv-small">
        Each clear face is turned into a face signature and a small picture of it, kept in this catalog on this computer. They are never uploaded and never shared with a team. Turning this off makes no new ones; clips indexed before keep theirs.
      </p>
      {status && <div className={status.ok ? 'ok-text sv-small' : 'error-text sv-small'} role="status">{status.text}</div>}
    </section>
  );
}
