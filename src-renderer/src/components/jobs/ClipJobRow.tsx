import { useState, type ReactNode } from 'react';
import type { ClipJobs, JobView } from '../../../../src-shared/contract/jobs';
import { api } from '../../api/client';
import { CLIP_STATE_LABEL, JOB_STATE_LABEL, formatDuration, indexedDetail, stageLabel, waitText } from './format';
import { ProgressLine, StageBar } from './StageBar';

type Action = 'pause' | 'resume' | 'cancel' | 'retry';

/** What the editor can do to a clip or to one of its jobs in a given state: anything under way can be paused. */
function actionsFor(state: ClipJobs['state'] | JobView['state']): Action[] {
  switch (state) {
    case 'running':
    case 'queued':
    case 'waiting':
    case 'blocked':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
    case 'cancelled':
      return ['retry'];
    default:
      return [];
  }
}

const ACTION_LABEL: Record<Action, string> = { pause: 'Pause', resume: 'Resume', cancel: 'Cancel', retry: 'Retry' };

async function run(action: Action, target: { jobId: number } | { clipId: number }, onError: (m: string) => void): Promise<void> {
  try {
    await api.call(`jobs.${action}`, target);
  } catch (e) {
    onError((e as Error).message);
  }
}

/** One clip: where it is in the stages, its overall progress, why it failed, what can be done. */
export function ClipJobRow({ clip }: { clip: ClipJobs }): ReactNode {
  const [open, setOpen] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const current = clip.jobs.find((j) => j.stage === clip.stage);
  const waitNote = current ? waitText(current.notBefore, current.attempts) : null;
  const detail =
    clip.state === 'done'
      ? indexedDetail(clip.segments, clip.note)
      : [stageLabel(clip.stage), clip.note, waitNote, clip.state === 'blocked' ? 'held until uploads resume' : null].filter(Boolean).join(' · ');
  return (
    <div className={`clip-job state-${clip.state}`} data-clip-id={clip.clipId} data-state={clip.state}>
      <div className="clip-job-main">
        <button className="clip-job-toggle" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={open ? 'Hide stages' : 'Show stages'}>
          {open ? '▾' : '▸'}
        </button>
        <div className="clip-job-name" title={clip.name}>
          <span className="clip-job-file">{clip.name}</span>
          {clip.durationS !== null && <span className="muted clip-job-duration">{formatDuration(clip.durationS)}</span>}
        </div>
        <span className={`job-state-badge state-${clip.state}`}>{CLIP_STATE_LABEL[clip.state]}</span>
        <div className="clip-job-progress">
          <StageBar clip={clip} />
          <div className="clip-job-detail muted">
            <span>{detail}</span>
            <span className="clip-job-pct">{Math.round(clip.progress * 100)}%</span>
          </div>
        </div>
        <div className="clip-job-actions">
          {clip.state === 'waiting' && (
            <button className="btn small" onClick={() => api.call('jobs.prioritizeClip', { clipId: clip.clipId }).catch((e: Error) => setActionError(e.message))} title="Index this clip before the others">
              First
            </button>
          )}
          {actionsFor(clip.state).map((a) => (
            <button key={a} className={`btn small${a === 'retry' ? ' primary' : ''}`} data-action={`clip-${a}`} onClick={() => void run(a, { clipId: clip.clipId }, setActionError)}>
              {ACTION_LABEL[a]}
            </button>
          ))}
        </div>
      </div>
      {clip.errorMessage && (clip.state === 'failed' || clip.state === 'waiting' || clip.state === 'blocked') && (
        <div className={clip.state === 'failed' ? 'clip-job-error error-text' : 'clip-job-error muted'} data-testid="clip-error">
          {clip.state === 'failed' ? 'Failed' : 'Last attempt'}: {clip.errorKind ? `${clip.errorKind} · ` : ''}
          {clip.errorMessage}
        </div>
      )}
      {actionError && <div className="clip-job-error error-text">{actionError}</div>}
      {open && (
        <table className="stage-table">
          <tbody>
            {clip.jobs.map((j) => (
              <tr key={j.id} className={`state-${j.state}`}>
                <td className="stage-name">{stageLabel(j.stage)}</td>
                <td>
                  <span className={`job-state-badge small state-${j.state}`}>{JOB_STATE_LABEL[j.state]}</span>
                </td>
                <td className="stage-progress">
                  <ProgressLine value={j.state === 'done' ? 1 : j.progress} state={j.state} />
                </td>
                <td className="muted stage-note">
                  {[j.note, j.attempts > 0 ? `${j.attempts} failed attempt${j.attempts === 1 ? '' : 's'}` : null, waitText(j.notBefore, j.attempts)].filter(Boolean).join(' · ')}
                  {j.errorMessage && j.state !== 'done' && <div className={j.state === 'failed' ? 'error-text' : ''}>{j.errorMessage}</div>}
                </td>
                <td className="stage-actions">
                  {actionsFor(j.state).map((a) => (
                    <button key={a} className="btn link small" onClick={() => void run(a, { jobId: j.id }, setActionError)}>
                      {ACTION_LABEL[a]}
                    </button>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
