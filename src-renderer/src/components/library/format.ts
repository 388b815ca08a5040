import type { ClipStatus, ClipSummary } from '../../../../src-shared/contract/library';
import { CLIP_STATE_LABEL } from '../jobs/format';

export const STATUS_LABEL: Record<ClipStatus, string> = {
  pending: 'Reading',
  probed: 'Processing',
  done: 'Ready',
  error: 'Error',
  unsupported: 'Unsupported',
  offline: 'Offline',
  missing: 'Missing',
};

export function statusTone(s: ClipStatus): 'ok' | 'warn' | 'error' | 'muted' | 'accent' {
  if (s === 'done') return 'ok';
  if (s === 'error') return 'error';
  if (s === 'unsupported' || s === 'missing') return 'warn';
  if (s === 'offline') return 'muted';
  return 'accent';
}

type Tone = ReturnType<typeof statusTone>;
const INDEX_TONE: Record<NonNullable<ClipSummary['indexing']>, Tone> = {
  done: 'ok',
  failed: 'error',
  running: 'accent',
  waiting: 'accent',
  blocked: 'muted',
  paused: 'muted',
  cancelled: 'muted',
};

/**
 * A card's badge: what is wrong with the file first (reading, error, offline...), otherwise where
 * its indexing is, in the Jobs view's own words ("Indexed" is finished in both places).
 */
export function clipBadge(c: Pick<ClipSummary, 'status' | 'indexing'> & Partial<Pick<ClipSummary, 'decodedS' | 'durationS'>>): { label: string; tone: Tone; title: string } {
  // A clip not read yet whose probe stopped (failed, paused, cancelled) must not say "Reading" for ever.
  if (c.status === 'pending' && (c.indexing === 'failed' || c.indexing === 'paused' || c.indexing === 'cancelled')) {
    const label = CLIP_STATE_LABEL[c.indexing];
    const title = c.indexing === 'failed' ? 'The file could not be read (see Jobs for the reason); importing it again retries' : label;
    return { label, tone: INDEX_TONE[c.indexing], title };
  }
  // Read only in part (a truncated copy): a Problem to look at first, searchable for what was read.
  if (c.status === 'done' && typeof c.decodedS === 'number' && c.indexing !== 'failed') {
    const of = c.durationS ? ` of ${c.durationS.toFixed(1)} s` : '';
    return { label: 'Plays in part', tone: 'warn', title: `The file plays ${c.decodedS.toFixed(1)} s${of}: truncated or damaged copy? What was read is searchable.` };
  }
  if ((c.status === 'probed' || c.status === 'done') && c.indexing) {
    const label = CLIP_STATE_LABEL[c.indexing];
    return { label, tone: INDEX_TONE[c.indexing], title: INDEX_TITLE[c.indexing] ?? label };
  }
  return { label: STATUS_LABEL[c.status], tone: statusTone(c.status), title: STATUS_LABEL[c.status] };
}

const INDEX_TITLE: Partial<Record<NonNullable<ClipSummary['indexing']>, string>> = {
  done: 'Indexed: searchable',
  blocked: 'Held: the network stages are paused or the service is not set up or not reachable (see Jobs)',
  failed: 'Indexing failed (see Jobs for the reason)',
};

export function formatResolution(c: Pick<ClipSummary, 'width' | 'height'>): string {
  return c.width && c.height ? `${c.width}×${c.height}` : '–';
}

export function formatFps(c: Pick<ClipSummary, 'fps' | 'vfr'>): string {
  if (!c.fps) return '';
  const v = Math.abs(c.fps - Math.round(c.fps)) < 0.01 ? String(Math.round(c.fps)) : c.fps.toFixed(2);
  return `${v}${c.vfr ? ' VFR' : ''} fps`;
}

/** A clip's size, or "remote" for one added by URL (it has no file here; its size is the server's business). */
export function formatSize(c: Pick<ClipSummary, 'sizeBytes' | 'sourceUrl'>): string {
  return c.sourceUrl ? 'remote' : formatBytes(c.sizeBytes);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** The line under a card: the reason when something is wrong, notes (VFR, truncated...) otherwise. */
export function reasonLine(c: ClipSummary): string | null {
  return c.statusReason;
}
