import type { ReactNode } from 'react';
import type { JobsSummary } from '../../../../src-shared/contract/jobs';
import { api } from '../../api/client';
import { stageLabel } from './format';

/**
 * The background lane (viewing proxies for clips indexed before they had one), said apart from the
 * clips' indexing, which it never holds up: how many wait, run, are paused or failed, and one
 * Pause / Resume / Retry for all of them.
 */
export function BackgroundWork({ lanes, act }: { lanes: JobsSummary['background']; act: (p: Promise<unknown>) => void }): ReactNode {
  if (lanes.length === 0) return null;
  return (
    <div className="jobs-background" data-testid="background-work">
      {lanes.map((l) => {
        const open = l.queued + l.running;
        const parts = [l.running ? `${l.running} running` : null, l.queued ? `${l.queued} waiting` : null, l.paused ? `${l.paused} paused` : null, l.failed ? `${l.failed} failed` : null].filter(Boolean);
        return (
          <div key={l.stage} className="row muted" data-stage={l.stage}>
            <span>
              In the background, {stageLabel(l.stage).toLowerCase()}s: {parts.join(', ')}
            </span>
            {open > 0 && (
              <button type="button" className="btn" onClick={() => act(api.call('jobs.pause', { background: l.stage }))}>
                Pause
              </button>
            )}
            {l.paused > 0 && (
              <button type="button" className="btn" onClick={() => act(api.call('jobs.resume', { background: l.stage }))}>
                Resume
              </button>
            )}
            {l.failed > 0 && (
              <button type="button" className="btn" onClick={() => act(api.call('jobs.retry', { background: l.stage }))}>
                Retry
              </button>
            )}
          </div>
        );
      })}
    </div>
  );
}
