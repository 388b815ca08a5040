import { useEffect, useState, type ReactNode } from 'react';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import type { Preferences, RegionId, ToolStatus } from '../../../src-shared/contract/settings';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { useSettings } from '../api/use-settings';
import { BackupList } from '../components/catalog/BackupList';
import { ProxySettings } from '../components/playback/ProxySettings';
import { TeamLibrarySection } from '../components/team/TeamLibrarySection';
import { FaceRecognitionSettings } from '../components/people/FaceRecognitionSettings';
import '../components/catalog/catalog.css';

type TestResult = { ok: boolean; text: string };

export function SettingsView({ health, onCatalogChanged }: { health: CatalogHealth | null; onCatalogChanged: (h: CatalogHealth) => void }): ReactNode {
  const { settings, error, setSettings } = useSettings();
  const [draft, setDraft] = useState<Preferences | null>(null);
  const [keyInput, setKeyInput] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [test, setTest] = useState<TestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [tools, setTools] = useState<{ tools: ToolStatus[]; canChoose: boolean } | null>(null);
  const [toolError, setToolError] = useState<string | null>(null);

  useEffect(() => {
    if (settings && !draft) setDraft(settings.preferences);
  }, [settings, draft]);
  useEffect(() => {
    api
      .call('settings.tools', {})
      .then(setTools)
      .catch((e: AppError) => setToolError(e.message));
  }, []);

  if (error) return <div className="view error-text">Settings could not be loaded: {error}</div>;
  if (!settings || !draft) return <div className="view muted">Loading settings…</div>;

  const region = draft.region;
  const set = <K extends keyof Preferences>(k: K, v: Preferences[K]) => setDraft({ ...draft, [k]: v });

  const save = async () => {
    setBusy(true);
    setStatus(null);
    try {
      let next = await api.call('settings.update', {
        region: draft.region,
        baseUrls: draft.baseUrls,
        authHeader: draft.authHeader,
        qps: draft.qps,
        concurrency: draft.concurrency,
      });
      if (keyInput.trim()) {
        next = await api.call('settings.setApiKey', { key: keyInput.trim() });
        setKeyInput('');
      }
      setSettings(next);
      setDraft(next.preferences);
      setStatus({ ok: true, text: 'Saved' });
    } catch (e) {
      setStatus({ ok: false, text: (e as AppError).message });
    } finally {
      setBusy(false);
    }
  };

  const testConnection = async () => {
    setTest(null);
    setBusy(true);
    try {
      // What the form holds, saved or not; a typed key goes along, the stored one only to its own address.
      const r = await api.call('settings.testConnection', {
        baseUrl: draft.baseUrls[region],
        authHeader: draft.authHeader,
        ...(keyInput.trim() ? { apiKey: keyInput.trim() } : {}),
      });
      setTest(
        r.ok
          ? { ok: true, text: `Connected in ${Math.round(r.latencyMs ?? 0)} ms · ${r.collections ?? 0} collection(s)` }
          : { ok: false, text: `${r.error?.kind ?? 'error'}: ${r.error?.message ?? 'failed'}` },
      );
    } catch (e) {
      setTest({ ok: false, text: (e as AppError).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="view" data-view="settings">
      <h1>Settings</h1>
      <section className="card">
        <h3 style={{ marginTop: 0 }}>Service</h3>
        <div className="field">
          <label htmlFor="region">Region</label>
          <select id="region" value={region} onChange={(e) => set('region', e.target.value as RegionId)}>
            {settings.regions.map((r) => (
              <option key={r.id} value={r.id} disabled={!r.available}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        {settings.regions.map((r) => (
          <div className="field" key={r.id}>
            <label htmlFor={`base-${r.id}`}>Base URL · {r.label}</label>
            <input
              id={`base-${r.id}`}
              type="text"
              placeholder={r.available ? 'https://…' : 'coming soon'}
              disabled={!r.available}
              value={draft.baseUrls[r.id]}
              onChange={(e) => set('baseUrls', { ...draft.baseUrls, [r.id]: e.target.value })}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor="api-key">API key</label>
          <div className="row">
            <input
              id="api-key"
              type="password"
              autoComplete="off"
              placeholder={settings.apiKey.set ? settings.apiKey.masked : 'not set'}
              value={keyInput}
              onChange={(e) => setKeyInput(e.target.value)}
            />
            <span className={`badge${settings.apiKey.set && !settings.apiKey.usable ? ' warn' : ''}`} data-testid="key-status" data-usable={settings.apiKey.usable}>
              {!settings.apiKey.set
                ? 'no key'
                : settings.apiKey.usable
                  ? `stored ${settings.apiKey.masked}`
                  : `stored ${settings.apiKey.masked} for ${settings.apiKey.origin ?? 'another address'}: enter the key again for this address`}
            </span>
            {settings.apiKey.set && (
              <button className="btn" onClick={() => void api.call('settings.clearApiKey', {}).then(setSettings)}>
                Remove
              </button>
            )}
          </div>
        </div>
        <div className="field">
          <label>Auth header</label>
          <div className="row">
            <label>
              <input type="radio" name="auth" checked={draft.authHeader === 'x-api-key'} onChange={() => set('authHeader', 'x-api-key')} /> X-API-Key
            </label>
            <label>
              <input type="radio" name="auth" checked={draft.authHeader === 'bearer'} onChange={() => set('authHeader', 'bearer')} /> Authorization: Bearer
            </label>
          </div>
        </div>
        <div className="field">
          <label htmlFor="qps">Requests per second</label>
          <input id="qps" type="number" min={0.1} step={0.1} value={draft.qps} onChange={(e) => set('qps', Number(e.target.value))} />
        </div>
        <div className="field">
          <label htmlFor="concurrency">Concurrent requests</label>
          <input id="concurrency" type="number" min={1} max={64} value={draft.concurrency} onChange={(e) => set('concurrency', Number(e.target.value))} />
        </div>
        <div className="row" style={{ marginTop: 14 }}>
          <button className="btn primary" onClick={() => void save()} disabled={busy} data-action="save-settings">
            Save
          </button>
          <button className="btn" onClick={() => void testConnection()} disabled={busy} data-action="test-connection">
            Test connection
          </button>
          {status && <span className={status.ok ? 'ok-text' : 'error-text'} data-testid="save-status">{status.text}</span>}
          {test && <span className={test.ok ? 'ok-text' : 'error-text'} data-testid="test-result">{test.text}</span>}
        </div>
      </section>
      <section className="card" data-testid="tools">
        <h3 style={{ marginTop: 0 }}>ffmpeg and ffprobe</h3>
        {toolError && <div className="error-text">{toolError}</div>}
        {tools && !tools.canChoose && (
          <p className="muted" data-testid="tools-web-hint">
            In web mode the programs are chosen where the app starts: <code>npm run start:web -- --ffmpeg PATH --ffprobe PATH</code>, or FFMPEG_PATH / FFPROBE_PATH.
          </p>
        )}
        {tools?.tools.map((t) => (
          <div className="field" key={t.tool} data-tool={t.tool}>
            <label>{t.tool}</label>
            <div className="row">
              {t.error ? (
                <span className="error-text">{t.error.message}</span>
              ) : (
                <div className="tool-status">
                  <div data-testid="tool-version">{t.version ?? t.tool}</div>
                  <div className="muted" data-testid="tool-source">
                    {toolSourceText(t)}
                  </div>
                  <code className="muted tool-path" data-testid="tool-path">
                    {t.path}
                  </code>
                </div>
              )}
              {tools.canChoose && (
                <button
                  className="btn"
                  data-action={`choose-${t.tool}`}
                  onClick={() =>
                    void api
                      .call('settings.chooseTool', { tool: t.tool })
                      .then((r) => (setTools(r), setToolError(null)))
                      .catch((e: AppError) => setToolError(e.message))
                  }
                >
                  Choose…
                </button>
              )}
              {t.source === 'setting' && (
                <button className="btn" onClick={() => void api.call('settings.clearTool', { tool: t.tool }).then(setTools)}>
                  Use the default
                </button>
              )}
            </div>
          </div>
        ))}
      </section>
      <ProxySettings
        preferences={settings.preferences}
        onSaved={(s) => {
          setSettings(s);
          setDraft({ ...draft, proxies: s.preferences.proxies, proxyBudgetGb: s.preferences.proxyBudgetGb });
        }}
      />
      <FaceRecognitionSettings
        preferences={settings.preferences}
        onSaved={(s) => {
          setSettings(s);
          setDraft({ ...draft, faceRecognition: s.preferences.faceRecognition });
        }}
      />
      <TeamLibrarySection />
      {health && (
        <section className="card" data-testid="catalog">
          <h3 style={{ marginTop: 0 }}>Catalog</h3>
          <p className="muted">
            {health.file} · backed up every day and before each upgrade. Restoring one replaces the catalog with it (the catalog replaced is kept as a backup).
          </p>
          <BackupList health={health} onRestored={onCatalogChanged} confirm />
        </section>
      )}
    </div>
  );
}

/** Where the program in use came from, in the words of the resolution order (ffmpeg-locate.ts). */
function toolSourceText(t: ToolStatus): string {
  switch (t.source) {
    case 'bundled':
      return `bundled with Reelscout${t.origin ? ` (${t.origin})` : ''}`;
    case 'setting':
      return 'chosen in Settings';
    case 'flag':
      return `start-up flag --${t.tool}`;
    case 'env':
      return t.tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
    case 'system':
      return "the system's, found on PATH";
    default:
      return 'unknown source';
  }
}
