/**
 * A clip's lifecycle as a pure function: state + event -> state (a new row's first state is
 * cataloguedState). The clips repository (clips-repository.ts) is the only writer of these columns
 * and computes every write with it; the tests drive it directly (test/unit/library/library-clip-lifecycle.test.ts).
 *
 * `status` is what the Library shows of the media: pending (catalogued, not probed), probed (footage,
 * shots or thumbnails missing), done (shots and thumbnails made: `done` is the app's one word for
 * finished, as for jobs and imports), error, unsupported. `indexed` says what else is done: every
 * segment embedded and tagged with the current profile (the Jobs view's "done" and the Library's
 * "Indexed" read it).
 */
export type ClipMediaStatus = 'pending' | 'probed' | 'done' | 'error' | 'unsupported';

export interface ClipState {
  status: ClipMediaStatus;
  hasShots: boolean;
  hasThumbs: boolean;
  indexed: boolean;
}

export type ClipEvent =
  /** The file's bytes changed (or it was emptied): everything derived from it is stale. */
  | { type: 'contentChanged'; empty: boolean }
  /** ffprobe's verdict on the file. */
  | { type: 'probed'; verdict: 'probed' | 'unsupported' | 'error' }
  /** Shot detection ran; `sameShots` when the boundaries came out as before (rows kept). */
  | { type: 'shotsDetected'; sameShots: boolean }
  | { type: 'thumbnailsMade' }
  /** The media could not be read (decode failure, empty file). */
  | { type: 'failed'; status: 'error' | 'unsupported' }
  /** The user's "Process again": from the start, keeping nothing derived. */
  | { type: 'processAgain' }
  | { type: 'indexed' }
  | { type: 'indexCleared' };

/** A file catalogued just now, or whose content changed: nothing is derived from it yet, and an empty one has failed already. */
export function cataloguedState(empty: boolean): ClipState {
  return { status: empty ? 'error' : 'pending', hasShots: false, hasThumbs: false, indexed: false };
}

const footage = (s: ClipMediaStatus) => s === 'probed' || s === 'done';
const readiness = (hasShots: boolean, hasThumbs: boolean): ClipMediaStatus => (hasShots && hasThumbs ? 'done' : 'probed');

export function nextClipState(s: ClipState, e: ClipEvent): ClipState {
  switch (e.type) {
    case 'contentChanged':
      return cataloguedState(e.empty);
    case 'probed':
      return { ...s, status: e.verdict === 'probed' ? readiness(s.hasShots, s.hasThumbs) : e.verdict };
    case 'shotsDetected': {
      const hasThumbs = e.sameShots && s.hasThumbs;
      return { status: footage(s.status) ? readiness(true, hasThumbs) : s.status, hasShots: true, hasThumbs, indexed: e.sameShots && s.indexed };
    }
    case 'thumbnailsMade':
      return { ...s, hasThumbs: true, status: footage(s.status) ? readiness(s.hasShots, true) : s.status };
    case 'failed':
      return { ...s, status: e.status };
    case 'processAgain':
      return { status: 'pending', hasShots: false, hasThumbs: false, indexed: false };
    case 'indexed':
      return { ...s, indexed: true };
    case 'indexCleared':
      return { ...s, indexed: false };
  }
}
