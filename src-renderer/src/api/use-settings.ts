import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../src-shared/contract/settings';
import { api } from './client';

/** Current settings, kept fresh by the settings.changed event. */
export function useSettings(): { settings: SettingsView | null; error: string | null; setSettings: (s: SettingsView) => void } {
  const [settings, setSettings] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      void api.call('settings.get', {}).then(
        (s) => live && setSettings(s),
        (e: Error) => live && setError(e.message),
      );
    load();
    const off = api.on('settings.changed', (s) => setSettings(s));
    // A change made before the event stream opened (or while it reconnected) sent no event we saw.
    const offSync = api.onResync(load);
    return () => {
      live = false;
      off();
      offSync();
    };
  }, []);
  return { settings, error, setSettings };
}
