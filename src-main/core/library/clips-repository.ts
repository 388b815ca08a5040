import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { nextClipState, type ClipEvent, type ClipMediaStatus, type ClipState } from './clip-lifecycle';

/**
 * The one writer of a clip's lifecycle columns (status, shots_at, thumbs_at, indexed_at,
 * indexed_profile): each write is an event, the next state comes from nextClipState, and columns
 * that belong to the same step (probe metadata, the reason shown on the card) are written with it
 * in one statement. Location columns (volume, path, missing_at) are the importer's and relink's.
 */
type ClipColumns = Readonly<Record<string, string | number | null>>;

/** Columns an event's companions may set: everything but the lifecycle itself. */
const LIFECYCLE = new Set(['status', 'shots_at', 'thumbs_at', 'indexed_at', 'indexed_profile', 'id']);
const COLUMN = /^[a-z_]+$/;

interface LifecycleRow {
  status: ClipMediaStatus;
  shots_at: number | null;
  thumbs_at: number | null;
  indexed_at: number | null;
}

/**
 * Applies `event` to the clip (and writes `columns` with it). A timestamp column is set when its
 * step happens now, kept when the state keeps it, cleared when the state drops it. Returns the new
 * state. `opts.indexedProfile` goes with the 'indexed' event.
 */
export function applyClipEvent(db: CatalogDb, clipId: number, event: ClipEvent, columns: ClipColumns = {}, opts: { indexedProfile?: string } = {}): ClipState {
  for (const c of Object.keys(columns)) {
    if (!COLUMN.test(c) || LIFECYCLE.has(c)) throw new AppError('internal', `clips column ${c} is not written with a lifecycle event`);
  }
  return db.transaction(() => {
    const row = db.prepare('SELECT status, shots_at, thumbs_at, indexed_at FROM clips WHERE id = ?').get(clipId) as LifecycleRow | undefined;
    if (!row) throw new AppError('not_found', `clip ${clipId} does not exist`);
    const cur: ClipState = { status: row.status, hasShots: row.shots_at !== null, hasThumbs: row.thumbs_at !== null, indexed: row.indexed_at !== null };
    const next = nextClipState(cur, event);
    const t = Date.now();
    const stamp = (has: boolean, old: number | null, now: boolean) => (!has ? null : now || old === null ? t : old);
    const values: Record<string, string | number | null> = {
      ...columns,
      status: next.status,
      shots_at: stamp(next.hasShots, row.shots_at, event.type === 'shotsDetected'),
      thumbs_at: stamp(next.hasThumbs, row.thumbs_at, event.type === 'thumbnailsMade'),
      indexed_at: stamp(next.indexed, row.indexed_at, event.type === 'indexed'),
      updated_at: t,
    };
    if (event.type === 'indexed') values.indexed_profile = opts.indexedProfile ?? null;
    const names = Object.keys(values);
    db.prepare(`UPDATE clips SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...values, id: clipId });
    return next;
  })();
}
