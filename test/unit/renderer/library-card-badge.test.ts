import { describe, expect, it } from 'vitest';
import { clipBadge } from '../../../src-renderer/src/components/library/format';

/** What a card's badge says: the file's own state first, then where its indexing is. */
describe('clipBadge', () => {
  it('says "Reading" while a clip waits for its probe, and the probe\'s failure once it has stopped', () => {
    expect(clipBadge({ status: 'pending', indexing: 'waiting' }).label).toBe('Reading');
    expect(clipBadge({ status: 'pending', indexing: 'running' }).label).toBe('Reading');
    expect(clipBadge({ status: 'pending', indexing: null }).label).toBe('Reading');
    const failed = clipBadge({ status: 'pending', indexing: 'failed' });
    expect(failed).toMatchObject({ label: 'Failed', tone: 'error' });
    expect(failed.title).toMatch(/could not be read.*Jobs/);
    expect(clipBadge({ status: 'pending', indexing: 'cancelled' }).label).toBe('Cancelled');
  });

  it('shows a read clip\'s indexing in the Jobs view\'s words, and a bad file\'s verdict over them', () => {
    expect(clipBadge({ status: 'done', indexing: 'done' }).label).toBe('Indexed');
    // A truncated copy that decodes 1.3 s of 9.6 s: a Problem on the card, never "Indexed".
    expect(clipBadge({ status: 'done', indexing: 'done', decodedS: 1.3, durationS: 9.6 })).toMatchObject({ label: 'Plays in part', tone: 'warn' });
    expect(clipBadge({ status: 'done', indexing: 'done', decodedS: 1.3, durationS: 9.6 }).title).toMatch(/plays 1\.3 s of 9\.6 s/);
    expect(clipBadge({ status: 'probed', indexing: 'blocked' }).label).toBe('Held');
    expect(clipBadge({ status: 'error', indexing: 'failed' }).label).toBe('Error');
  });
});
