import { STAGE_LABELS, type ClipJobs, type JobView } from '../../../../src-shared/contract/jobs';

export function stageLabel(stage: string): string {
  return STAGE_LABELS[stage] ?? stage;
}

/** "about 4 min", "about 1 h 20 min", "under a minute". */
export function formatEta(ms: number | null): string {
  if (ms === null) return 'estimating…';
  if (ms <= 0) return 'almost done';
  const s = Math.round(ms / 1000);
  if (s < 60) return 'under a minute';
  const m = Math.round(s / 60);
  if (m < 60) return `about ${m} min`;
  const h = Math.floor(m / 60);
  return `about ${h} h ${m % 60} min`;
}

export const CLIP_STATE_LABEL: Record<ClipJobs['state'], string> = {
  waiting: 'Waiting',
  running: 'Running',
  blocked: 'Held',
  paused: 'Paused',
  failed: 'Failed',
  cancelled: 'Cancelled',
  done: 'Indexed',
};

export const JOB_STATE_LABEL: Record<JobView['state'], string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  paused: 'Paused',
  cancelled: 'Cancelled',
};

export function formatDuration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '';
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  return m > 0 ? `${m}:${String(r).padStart(2, '0')}` : `${r} s`;
}

/**
 * When a queued job runs again, if it waits: a retry after a failed attempt, or (no attempt failed) its
 * next look (a task the service is still processing, a clip another seat of the team is indexing).
 */
export function waitText(notBefore: number | null, attempts: number, now = Date.now()): string | null {
  if (notBefore === null || notBefore <= now) return null;
  const s = Math.ceil((notBefore - now) / 1000);
  const when = s < 60 ? `${s} s` : `${Math.ceil(s / 60)} min`;
  return attempts > 0 ? `retry in ${when}` : `next look in ${when}`;
}

/**
 * An indexed clip's line: its segment count and the last stage's note. The index stage's note starts
 * with that same count ("3 segments indexed, 1 shot(s) without frames"): it is shown once.
 */
export function indexedDetail(segments: number, note: string | null): string {
  const count = `${segments} segment${segments === 1 ? '' : 's'} indexed`;
  if (!note) return count;
  return note.startsWith(count) ? note : `${count} · ${note}`;
}
