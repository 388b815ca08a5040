import type { ReactNode } from 'react';
import { api } from '../api/client';
import { useSettings } from '../api/use-settings';
import { useJobsSummary } from './jobs/use-jobs';
import '../views/jobs.css';

/** App-wide conditions the editor must act on, shown above every view. */
export function StatusBanner({ onOpenSettings }: { onOpenSettings: () => void }): ReactNode {
  const { settings } = useSettings();
  const { summary } = useJobsSummary();
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
  const net = summary?.network;
  if (!net || net.open || !net.reason) return null;
  const resume = () => void api.call('jobs.resumeNetwork', {}).catch(() => {});
  switch (net.reason) {
    case 'auth':
      return (
        <div className="banner error" role="alert" data-banner="auth">
          <span>
            The service refused the API key: uploads are stopped until a valid key is entered. <span className="muted">{net.message}</span>
          </span>
          <div className="spacer" />
          <button className="btn primary" onClick={onOpenSettings}>
            Open Settings
          </button>
        </div>
      );
    case 'quota':
      return (
        <div className="banner" role="alert" data-banner="quota">
          <span>
            Quota exceeded: uploads and submissions are paused (local analysis continues). Raise the quota or check billing, then resume.
          </span>
          <div className="spacer" />
          <button className="btn primary" data-action="resume-quota" onClick={resume}>
            Resume
          </button>
        </div>
      );
    case 'offline':
      return (
        <div className="banner info" role="status" data-banner="offline">
          <span>Waiting for the service: it cannot be reached. Indexing carries on by itself as soon as it answers.</span>
          <div className="spacer" />
          <button className="btn" onClick={resume} title="Check again now">
            Retry now
          </button>
        </div>
      );
    case 'user':
      return (
        <div className="banner info" role="status" data-banner="paused">
          <span>Uploads are paused. Local analysis continues.</span>
          <div className="spacer" />
          <button className="btn" onClick={resume}>
            Resume
          </button>
        </div>
      );
  }
}
