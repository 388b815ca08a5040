import { useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api } from '../api/client';
import { BackgroundWork } from '../components/jobs/BackgroundWork';
import { ClipJobRow } from '../components/jobs/ClipJobRow';
import { formatEta, stageLabel } from '../components/jobs/format';
import { useJobList, useJobsSummary, type JobListFilter } from '../components/jobs/use-jobs';
import './jobs.css';

const FILTERS: { id: JobListFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'active', label: 'In progress' },
  { id: 'failed', label: 'Failed' },
  { id: 'done', label: 'Indexed' },
];

/** The indexing queue, one row per clip: stage, progress, failure reason, controls; totals and ETA on top. */
export function JobsView(): ReactNode {
  const [filter, setFilter] = useState<JobListFilter>('all');
  const { summary } = useJobsSummary();
  const { clips, total, loading, error } = useJobList(filter);
  const [actionError, setActionError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: clips.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 74,
    overscan: 8,
    getItemKey: (i) => clips[i]?.clipId ?? i,
  });

  const act = (p: Promise<unknown>) => p.then(() => setActionError(null), (e: Error) => setActionError(e.message));
  const net = summary?.network;
  const counts: Record<JobListFilter, number | undefined> = summary
    ? { all: summary.clips.total, active: summary.clips.active, failed: summary.clips.failed, done: summary.clips.done }
    : { all: undefined, active: undefined, failed: undefined, done: undefined };
  const overall = summary && summary.clips.total > 0 ? summary.clips.done / summary.clips.total : 0;

  return (
    <div className="view jobs-view" data-view="jobs">
      <div className="row jobs-head">
        <h1>Jobs</h1>
        <div className="spacer" />
        {net && !net.open && net.reasons.includes('user') ? (
          <button className="btn" data-action="resume-network" onClick={() => void act(api.call('jobs.resumeNetwork', {}))}>
            Resume uploads
          </button>
        ) : (
          <button className="btn" data-action="pause-network" disabled={!summary} onClick={() => void act(api.call('jobs.pauseNetwork', {}))} title="Uploads, submissions and polls stop; local analysis goes on">
            Pause uploads
          </button>
        )}
        <button className="btn" data-action="retry-failed" disabled={!summary || summary.clips.failed === 0} onClick={() => void act(api.call('jobs.retryFailed', {}))}>
          Retry failed
        </button>
      </div>

      {summary && (
        <section className={`card jobs-summary${summary.clips.total > 0 && summary.clips.done === summary.clips.total ? ' all-done' : ''}`} data-testid="jobs-summary">
          <div className="jobs-totals">
            <div>
              <div className="jobs-big" data-testid="clips-done">
                {summary.clips.done} / {summary.clips.total}
              </div>
              <div className="muted">clips indexed</div>
            </div>
            <div>
              <div className="jobs-big" data-testid="clips-running">{summary.clips.running}</div>
              <div className="muted">running</div>
            </div>
            <div>
              <div className="jobs-big" data-testid="clips-waiting">{summary.clips.waiting}</div>
              <div className="muted">waiting</div>
            </div>
            <div>
              <div className={`jobs-big${summary.clips.failed ? ' error-text' : ''}`}>{summary.clips.failed}</div>
              <div className="muted">failed</div>
            </div>
            <div>
              <div className="jobs-big" data-testid="eta">
                {summary.clips.active === 0 ? '—' : !summary.network.open && summary.etaMs === null ? 'on hold' : formatEta(summary.etaMs)}
              </div>
              <div className="muted" data-testid="eta-note">
                remaining{summary.clips.active > 0 && summary.etaNote ? ` · ${summary.etaNote}` : ''}
              </div>
            </div>
          </div>
          <div className="progress-line big state-running" aria-label="clips indexed">
            <div className="progress-fill" style={{ width: `${Math.round(overall * 100)}%` }} />
          </div>
          {summary.otherJobs.length > 0 && (
            // Work for no clip (the reference queries) is not counted with the clips: said apart.
            <div className="muted jobs-other" data-testid="other-jobs">
              {summary.otherJobs.map((j) => `Also ${j.state === 'running' ? 'running' : 'waiting'}: ${stageLabel(j.stage)}`).join(' · ')}
            </div>
          )}
          <BackgroundWork lanes={summary.background} act={act} />
        </section>
      )}

      <div className="row jobs-filters" role="tablist">
        {FILTERS.map((f) => (
          <button key={f.id} role="tab" aria-selected={filter === f.id} className={`jobs-tab${filter === f.id ? ' active' : ''}`} onClick={() => setFilter(f.id)} data-filter={f.id}>
            {f.label}
            {counts[f.id] !== undefined && <span className="jobs-tab-count">{counts[f.id]}</span>}
          </button>
        ))}
      </div>

      {actionError && <div className="error-text">{actionError}</div>}
      {error && <div className="error-text">Jobs could not be loaded: {error}</div>}
      {!error && !loading && clips.length === 0 && (
        <div className="empty">{filter === 'all' ? 'Nothing queued yet. Import a folder in the Library: its clips are indexed here.' : 'No clips here.'}</div>
      )}

      <div className="jobs-list" ref={scroller} data-testid="jobs-list">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const clip = clips[v.index]!;
            return (
              <div key={v.key} data-index={v.index} ref={virtual.measureElement} className="jobs-list-item" style={{ transform: `translateY(${v.start}px)` }}>
                <ClipJobRow clip={clip} />
              </div>
            );
          })}
        </div>
      </div>
      {total > clips.length && <div className="muted">Showing the first {clips.length} of {total} clips.</div>}
    </div>
  );
}
