import type { CollectionVideo, CollectionVideoState } from '../../../../src-shared/contract/collections';

export const STATE_LABEL: Record<CollectionVideoState, string> = {
  queued: 'Waiting',
  transcoding: 'Making proxy',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  processing: 'Processing',
  processed: 'Ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const OPEN: readonly CollectionVideoState[] = ['queued', 'transcoding', 'uploading', 'uploaded', 'processing'];

export function stateTone(s: CollectionVideoState): 'accent' | 'ok' | 'error' | 'muted' {
  if (s === 'processed') return 'ok';
  if (s === 'failed') return 'error';
  if (s === 'cancelled' || s === 'queued') return 'muted';
  return 'accent';
}

/** What the row waits on when it is not simply working: a failure, or a transient problem. */
export function reasonOf(v: CollectionVideo): string | null {
  if (!v.errorMessage) return null;
  if (v.status === 'failed') return v.errorMessage;
  return `${v.errorKind ?? 'waiting'}: ${v.errorMessage}`;
}

export function timeOf(ms: number | null): string {
  if (ms === null) return 'never';
  const d = new Date(ms);
  const today = new Date();
  const sameDay = d.toDateString() === today.toDateString();
  return sameDay ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}
