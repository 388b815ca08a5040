import type { ReactNode } from 'react';
import { INDEX_STAGES, type ClipJobs } from '../../../../src-shared/contract/jobs';
import { stageLabel } from './format';

/** One cell per stage: done cells full, the current one filled to its progress, later ones empty. */
export function StageBar({ clip }: { clip: ClipJobs }): ReactNode {
  const current = clip.jobs.find((j) => j.stage === clip.stage);
  return (
    <div className={`stage-bar state-${clip.state}`} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(clip.progress * 100)} aria-label={`${clip.name}: ${Math.round(clip.progress * 100)}%`}>
      {INDEX_STAGES.map((s, i) => {
        let fill = 0;
        if (clip.state === 'done' || i < clip.stageIndex) fill = 1;
        else if (i === clip.stageIndex) fill = current?.state === 'done' ? 1 : (current?.progress ?? 0);
        return (
          <div key={s} className={`stage-cell${i === clip.stageIndex && clip.state !== 'done' ? ' current' : ''}`} title={stageLabel(s)}>
            <div className="stage-fill" style={{ width: `${Math.round(fill * 100)}%` }} />
          </div>
        );
      })}
    </div>
  );
}

export function ProgressLine({ value, state }: { value: number; state: string }): ReactNode {
  return (
    <div className={`progress-line state-${state}`}>
      <div className="progress-fill" style={{ width: `${Math.round(Math.min(1, Math.max(0, value)) * 100)}%` }} />
    </div>
  );
}
