import { useEffect, useState, type ReactNode } from 'react';
import type { ProxySpace } from '../../../../src-shared/contract/playback';
import type { Preferences, ProxyPolicy, SettingsView } from '../../../../src-shared/contract/settings';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

const POLICY_LABEL: Record<ProxyPolicy, string> = {
  needed: 'When needed: codecs the viewer cannot play, and drives that can be unplugged',
  always: 'Always: every clip, so any clip can be watched with its drive away',
  never: 'Never',
};

const POLICY_SHORT: Record<ProxyPolicy, string> = { needed: 'when needed', always: 'always', never: 'never' };

const gb = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`);

/**
 * Settings' viewing proxies: when clips get one (made while they are indexed, or in the
 * background for clips indexed before), the space they may take, and what they take now.
 * Each change is saved at once (it touches nothing else of the form).
 */
export function ProxySettings({ preferences, onSaved }: { preferences: Preferences; onSaved: (s: SettingsView) => void }): ReactNode {
  const [space, setSpace] = useState<ProxySpace | null>(null);
  const [budget, setBudget] = useState(String(preferences.proxyBudgetGb));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => void api.call('playback.proxySpace', {}).then((s) => live && setSpace(s), () => undefined);
    load();
    const off = api.on('catalog.changed', (p) => p.reason === 'media' && load());
    return () => {
      live = false;
      off();
    };
  }, []);
  /** One change saved at once; the section says whether it was. */
  const saving = async (change: () => Promise<void>) => {
    try {
      await change();
      setStatus({ ok: true, text: 'Saved' });
    } catch (e) {
      setStatus({ ok: false, text: (e as AppError).message });
    }
  };
  const save = (patch: { proxies?: ProxyPolicy; proxyBudgetGb?: number }) => saving(async () => onSaved(await api.call('settings.update', patch)));
  const saveVolume = (volumeId: number, policy: ProxyPolicy | null) => saving(async () => setSpace(await api.call('playback.volumeProxies', { volumeId, policy })));
  const budgetGb = Number(budget);
  return (
    <section className="card" data-testid="proxy-settings">
      <h3 style={{ marginTop: 0 }}>Viewing proxies</h3>
      <p className="muted sv-small">
        A small H.264 copy of a clip, written while it is indexed, so every clip plays in the viewer, frame for frame, with its original's timecode, even when its drive is unplugged. Exports always name the original.
      </p>
      <label className="row">
        Make proxies
        <select value={preferences.proxies} onChange={(e) => void save({ proxies: e.target.value as ProxyPolicy })} data-testid="proxy-policy">
          {(Object.keys(POLICY_LABEL) as ProxyPolicy[]).map((p) => (
            <option key={p} value={p}>
              {POLICY_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <label className="row">
          Space for proxies (GB)
          <input type="number" min={1} value={budget} onChange={(e) => setBudget(e.target.value)} style={{ width: 100 }} data-testid="proxy-budget" />
        </label>
        <button type="button" className="btn" disabled={!(budgetGb >= 1) || budgetGb === preferences.proxyBudgetGb} onClick={() => void save({ proxyBudgetGb: budgetGb })}>
          Set
        </button>
        <span className="muted sv-small">Past it, the proxies played least recently are removed first.</span>
      </div>
      <div className="sv-small" data-testid="proxy-space">
        {space ? `${space.count} proxies, ${gb(space.bytes)} of ${preferences.proxyBudgetGb} GB · in ${space.folder}` : 'Reading the space used…'}
      </div>
      {space?.stopped && <div className="error-text sv-small" data-testid="proxy-stopped">{space.stopped}</div>}
      {space && space.volumes.length > 0 && (
        <table className="sv-small proxy-volumes" data-testid="proxy-volumes">
          <caption className="muted" style={{ textAlign: 'left' }}>
            Per drive
          </caption>
          <tbody>
            {space.volumes.map((v) => (
              <tr key={v.id}>
                <th scope="row" style={{ textAlign: 'left', fontWeight: 'normal' }}>
                  <label htmlFor={`proxy-volume-${v.id}`}>
                    {v.label} <span className="muted">({v.clipCount} clips{v.online ? '' : ', offline'})</span>
                  </label>
                </th>
                <td>
                  <select
                    id={`proxy-volume-${v.id}`}
                    value={v.proxyPolicy ?? 'default'}
                    data-testid="proxy-volume-policy"
                    onChange={(e) => void saveVolume(v.id, e.target.value === 'default' ? null : (e.target.value as ProxyPolicy))}
                  >
                    <option value="default">As above ({POLICY_SHORT[preferences.proxies]})</option>
                    {(Object.keys(POLICY_SHORT) as ProxyPolicy[]).map((p) => (
                      <option key={p} value={p}>
                        {POLICY_SHORT[p]}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {status && <div className={status.ok ? 'ok-text sv-small' : 'error-text sv-small'} role="status">{status.text}</div>}
    </section>
  );
}
