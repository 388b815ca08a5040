import type { ReactNode } from 'react';
import { useSettings } from '../api/use-settings';

/** App-wide conditions the editor must act on, shown above every view. */
export function StatusBanner({ onOpenSettings }: { onOpenSettings: () => void }): ReactNode {
  const { settings } = useSettings();
  if (!settings) return null;
  if (!settings.apiKey.set || !settings.preferences.baseUrls[settings.preferences.region]) {
    return (
      <div className="banner" role="status" data-banner="setup">
        <span>Cloud indexing is off until a service URL and API key are set. Browsing and local analysis still work.</span>
        <button className="btn" onClick={onOpenSettings}>
          Open Settings
        </button>
      </div>
    );
  }
  return null;
}
