import { useState, type ReactNode } from 'react';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { api } from '../api/client';
import { useSettings } from '../api/use-settings';
import { useJobsSummary } from './jobs/use-jobs';
import '../views/jobs.css';

/** App-wide conditions the editor must act on (or know of), shown above every view, most pressing first. */
export function StatusBanner({ health, onOpenSettings }: { health: CatalogHealth | null; onOpenSettings: () => void }): ReactNode {
  const { settings } = useSettings();
  const { summary } = useJobsSummary();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (health?.state === 'read_only') {
    return (
      <Banner name="read-only" alert>
        <strong>Disk full: the library is read-only.</strong> {health.message}
      </Banner>
    );
  }
  if (health?.state === 'ok' && health.message && dismissed !== health.message) {
    return (
      <Banner name="catalog-notice" tone="info" action={{ label: 'Backups…', onClick: onOpenSettings }} dismiss={() => setDismissed(health.message)}>
        {health.message}
      </Banner>
    );
  }
  const net = summary?.network;
  if (net && !net.open && net.reason === 'disk') {
    return (
      <Banner name="disk" alert>
        <strong>Disk full: indexing is paused.</strong> {net.message}
      </Banner>
    );
  }
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
  if (!net || net.open || !net.reason) return null;
  const resume = () => void api.call('jobs.resumeNetwork', {}).catch(() => {});
  switch (net.reason) {
    case 'auth':
      return (
        <Banner name="auth" tone="error" alert action={{ label: 'Open Settings', onClick: onOpenSettings, primary: true }}>
          The service refused the API key: uploads are stopped until a valid key is entered. <span className="muted">{net.message}</span>
        </Banner>
      );
    case 'quota':
      return (
        <Banner name="quota" alert action={{ label: 'Resume', onClick: resume, primary: true, id: 'resume-quota' }}>
          Quota exceeded: uploads and submissions are paused (local analysis continues). Raise the quota or check billing, then resume.
        </Banner>
      );
    case 'offline':
      return (
        <Banner name="offline" tone="info" action={{ label: 'Retry now', onClick: resume, title: 'Check again now' }}>
          Waiting for the service: it cannot be reached. Indexing carries on by itself as soon as it answers.
        </Banner>
      );
    case 'user':
      return (
        <Banner name="paused" tone="info" action={{ label: 'Resume', onClick: resume }}>
          Uploads are paused. Local analysis continues.
        </Banner>
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

/** Why work is held (or what happened to the catalog), and the one thing that helps, at the banner's far end. */
function Banner({ name, tone, alert, action, dismiss, children }: { name: string; tone?: 'error' | 'info'; alert?: boolean; action?: BannerAction; dismiss?: () => void; children: ReactNode }): ReactNode {
  return (
    <div className={tone ? `banner ${tone}` : 'banner'} role={alert ? 'alert' : 'status'} data-banner={name}>
      <span>{children}</span>
      <div className="spacer" />
      {action && (
        <button className={action.primary ? 'btn primary' : 'btn'} data-action={action.id} title={action.title} onClick={action.onClick}>
          {action.label}
        </button>
      )}
      {dismiss && (
        <button className="btn link" onClick={dismiss} data-action="dismiss">
          Dismiss
        </button>
      )}
    </div>
  );
}
