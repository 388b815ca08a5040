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
        <NetworkBanner name="auth" tone="error" alert action={{ label: 'Open Settings', onClick: onOpenSettings, primary: true }}>
          The service refused the API key: uploads are stopped until a valid key is entered. <span className="muted">{net.message}</span>
        </NetworkBanner>
      );
    case 'quota':
      return (
        <NetworkBanner name="quota" alert action={{ label: 'Resume', onClick: resume, primary: true, id: 'resume-quota' }}>
          Quota exceeded: uploads and submissions are paused (local analysis continues). Raise the quota or check billing, then resume.
        </NetworkBanner>
      );
    case 'offline':
      return (
        <NetworkBanner name="offline" tone="info" action={{ label: 'Retry now', onClick: resume, title: 'Check again now' }}>
          Waiting for the service: it cannot be reached. Indexing carries on by itself as soon as it answers.
        </NetworkBanner>
      );
    case 'user':
      return (
        <NetworkBanner name="paused" tone="info" action={{ label: 'Resume', onClick: resume }}>
          Uploads are paused. Local analysis continues.
        </NetworkBanner>
      );
  }
}

interface BannerAction {
  label: string;
  onClick: () => void;
  primary?: boolean;
  /** data-action, for a button tests and automation address directly. */
  id?: string;
  title?: string;
}

/** Why the network side is held, and the one thing that lifts it, at the banner's far end. */
function NetworkBanner({ name, tone, alert, action, children }: { name: string; tone?: 'error' | 'info'; alert?: boolean; action: BannerAction; children: ReactNode }): ReactNode {
  return (
    <div className={tone ? `banner ${tone}` : 'banner'} role={alert ? 'alert' : 'status'} data-banner={name}>
      <span>{children}</span>
      <div className="spacer" />
      <button className={action.primary ? 'btn primary' : 'btn'} data-action={action.id} title={action.title} onClick={action.onClick}>
        {action.label}
      </button>
    </div>
  );
}
