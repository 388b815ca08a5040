import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../src-shared/contract/settings';
import { api } from './client';

/** Current settings, kept fresh by the settings.changed event. */
export function useSettings(): { settings: SettingsView | null; error: string | null; setSettings: (s: SettingsView) => void } {
  const [settings, setSettings] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.call('settings.get', {}).then(
      (s) => live && setSettings(s),
      (e: Error) => live && setError(e.message),
    );
    const off = api.on('settings.changed', (s) => setSettings(s));
    return () => {
      live = false;
      off();
    };
  }, []);
  return { settings, error, setSettings };
}
