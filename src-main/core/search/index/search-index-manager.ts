import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import { clearLoadingMarker, saveIndex, tryLoadIndex } from './index-store';
import { spaceKey, type EmbeddingSpace } from './embedding-space';
import type { IndexSyncStore, StoredVector } from './index-sync-store';
import { fittingRows } from './stored-rows';
import { createVectorIndex } from './vector-index';
import type { SearchFilter, SearchHit, VectorIndex } from './vector-types';

export type IndexState = 'loading' | 'rebuilding' | 'ready' | 'error';

export interface IndexStatus {
  state: IndexState;
  size: number;
  dimension: number;
  model: string;
  region: string;
  origin: string | null;
  error: string | null;
}

export interface SearchIndexManagerOptions {
  /** The embeddings, their change log and the saved state, as the catalog holds them. */
  store: IndexSyncStore;
  /** Folder beside the catalog; each embedding space gets its own sub-folder. */
  dir: string;
  space: () => EmbeddingSpace;
  logger?: Logger;
  createIndex?: () => VectorIndex;
  /** Quiet time after the last change before the index is written (a save checksums every file). */
  saveDelayMs?: number;
  /** How often the change log is read without a search asking (0: only when searched). */
  pollMs?: number;
  /** Above this many pending changes a background rebuild is cheaper than replaying them. */
  rebuildBacklog?: number;
  onStatus?: (s: IndexStatus) => void;
  /** Vectors changed: these segment ids, or every one (null: another index object took over). */
  onChanged?: (ids: readonly number[] | null) => void;
}

const PAGE_ROWS = 4096;
/**
 * How long a loaded index keeps its crash-loop marker: glibc notices heap damage from a bad file
 * at some later allocation (the audit's file aborted within milliseconds to a second or two). A
 * start killed within this window for another reason only costs the next start a rebuild.
 */
const LOAD_SETTLE_MS = 30_000;

/**
 * Keeps the vector index in step with the catalog's `embeddings` table for the active embedding
 * space (model + region):
 * - at start, loads the saved index if its checksums pass and the change log still reaches back to
 *   the sequence it was saved at, then replays the log; otherwise rebuilds from the table;
 * - as segments arrive (the pipeline writes rows, triggers append to embedding_changes), replays the
 *   log before each search and on a timer, so no caller has to remember to notify it;
 * - saves a while after the last change and on dispose, then prunes the log it no longer needs.
 */
export class SearchIndexManager {
  private readonly o: Required<Omit<SearchIndexManagerOptions, 'logger' | 'onStatus' | 'onChanged'>> & Pick<SearchIndexManagerOptions, 'logger' | 'onStatus' | 'onChanged'>;
  private index: VectorIndex | null = null;
  private appliedSeq = 0;
  private currentSpace: EmbeddingSpace | null = null;
  private opening: Promise<void> | null = null;
  /** Bumped on every open/rebuild so a superseded async rebuild drops its result. */
  private token = 0;
  private state: IndexState = 'loading';
  private origin: string | null = null;
  private error: string | null = null;
  private dirty = false;
  private saveTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private backgroundRebuild: Promise<void> | null = null;
  private skippedDims = 0;
  private disposed = false;
  /** Removes the crash-loop marker of the index loaded last (index-store.ts). */
  private settleLoad: (() => void) | null = null;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(opts: SearchIndexManagerOptions) {
    this.o = {
      createIndex: () => createVectorIndex(),
      saveDelayMs: 15_000,
      pollMs: 2_000,
      rebuildBacklog: 200_000,
      ...opts,
    };
  }

  /** Loads or rebuilds the index of the current space and starts following the change log. */
  start(): Promise<void> {
    if (!this.opening) this.opening = this.open(this.o.space());
    if (this.o.pollMs > 0 && !this.pollTimer) {
      this.pollTimer = setInterval(() => {
        const space = this.o.space();
        if (this.currentSpace && spaceKey(space) !== spaceKey(this.currentSpace) && this.state !== 'rebuilding') {
          // Settings changed the embedding space: switch now rather than on the next search.
          this.ready().catch((e) => this.o.logger?.warn('search.index.switch.failed', { message: toAppError(e).message }));
        } else if (this.state === 'ready') this.catchUpSafely();
      }, this.o.pollMs);
      this.pollTimer.unref();
    }
    return this.opening;
  }

  /** The index, current with the catalog. Waits for a load or rebuild in progress. */
  async ready(): Promise<VectorIndex> {
    if (this.disposed) throw new AppError('cancelled', 'search index is closed');
    if (!this.opening) void this.start().catch(() => undefined);
    for (;;) {
      const space = this.o.space();
      if (!this.currentSpace || spaceKey(space) !== spaceKey(this.currentSpace)) {
        // Region or model changed: vectors of another space must never be compared with this one.
        // Several callers may notice at once: only the first one to get here after the wait switches.
        const before = this.opening;
        await before?.catch(() => undefined);
        if (this.opening !== before) continue;
        if (this.currentSpace && spaceKey(space) === spaceKey(this.currentSpace)) continue;
        this.flush();
        this.opening = this.open(space);
      }
      const opening = this.opening!;
      await opening;
      if (opening === this.opening) break;
    }
    if (this.state === 'error' || !this.index) throw new AppError('internal', `search index unavailable: ${this.error ?? 'not loaded'}`);
    this.catchUp();
    return this.index;
  }

  async search(query: ArrayLike<number>, k: number, filter?: SearchFilter): Promise<SearchHit[]> {
    const index = await this.ready();
    if (index.size === 0) return [];
    if (query.length !== index.dimension) {
      throw new AppError(
        'invalid',
        `the query embedding has ${query.length} dimensions but the indexed segments have ${index.dimension}: the service's model changed; re-run the pipeline on the library`,
      );
    }
    return index.search(query, k, filter);
  }

  /** A segment's stored embedding in the active space (from the catalog, so it works whatever the index holds). */
  storedVector(segmentId: number): Float32Array {
    const row = this.o.store.vectorOf(segmentId);
    if (!row) throw new AppError('not_found', `segment ${segmentId} has no embedding yet`);
    const space = this.o.space();
    if (row.model !== space.model || row.region !== space.region) {
      throw new AppError('not_found', `segment ${segmentId} was embedded by ${row.model} in ${row.region}, not the active ${space.model} in ${space.region}`);
    }
    if (!row.vector) throw new AppError('io', `segment ${segmentId}'s stored embedding is damaged`);
    return row.vector;
  }

  /** The configured space's index; while another space is still loaded, that one reports 'loading'. */
  status(): IndexStatus {
    const space = this.o.space();
    const current = this.currentSpace !== null && spaceKey(this.currentSpace) === spaceKey(space);
    return {
      state: current ? this.state : 'loading',
      size: current ? (this.index?.size ?? 0) : 0,
      dimension: current ? (this.index?.dimension ?? 0) : 0,
      model: space.model,
      region: space.region,
      origin: current ? this.origin : null,
      error: current ? this.error : null,
    };
  }

  /** Writes the index now if it changed since the last save. */
  flush(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    if (!this.dirty || !this.index || !this.currentSpace || this.state !== 'ready') return;
    this.saveNow(this.index, this.currentSpace, this.appliedSeq);
  }

  async dispose(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    await this.opening?.catch(() => undefined);
    await this.backgroundRebuild?.catch(() => undefined);
    try {
      this.flush();
    } catch (e) {
      this.o.logger?.warn('search.index.save.failed', { message: toAppError(e).message });
    }
    this.settle();
    this.disposed = true;
    this.token++;
  }

  // ---- internals ------------------------------------------------------------------------------

  private emit(): void {
    this.o.onStatus?.(this.status());
  }

  private dirFor(space: EmbeddingSpace): string {
    return path.join(this.o.dir, spaceKey(space));
  }

  /** The loaded index survived its first moments (or is closed cleanly): the next start may load it again. */
  private settle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    this.settleLoad?.();
    this.settleLoad = null;
  }

  private async open(space: EmbeddingSpace): Promise<void> {
    this.settle();
    const token = ++this.token;
    this.currentSpace = space;
    this.index = null;
    this.state = 'loading';
    this.error = null;
    this.emit();
    const recorded = this.o.store.savedSeq(space);
    const pruned = this.o.store.prunedThrough();
    let reason: string;
    if (recorded === undefined) reason = 'no saved index';
    else if (recorded < pruned) reason = 'saved index is older than the change log';
    else {
      const loaded = tryLoadIndex(this.dirFor(space), recorded, this.o.createIndex);
      if (loaded.ok) {
        this.settleLoad = loaded.settle;
        this.settleTimer = setTimeout(() => this.settle(), LOAD_SETTLE_MS);
        this.settleTimer.unref?.();
        this.index = loaded.index;
        this.o.onChanged?.(null);
        this.appliedSeq = recorded;
        this.origin = 'loaded';
        this.state = 'ready';
        this.o.logger?.info('search.index.loaded', { size: loaded.index.size, generation: recorded });
        try {
          this.catchUp();
        } catch (e) {
          this.o.logger?.warn('search.index.catchup.failed', { message: toAppError(e).message });
        }
        this.emit();
        return;
      }
      reason = `${loaded.reason}: ${loaded.detail}`;
    }
    this.state = 'rebuilding';
    this.emit();
    try {
      const built = await this.buildFromCatalog(space, token);
      if (!built) return;
      this.index = built.index;
      this.o.onChanged?.(null);
      this.appliedSeq = built.seq;
      this.origin = `rebuilt (${reason})`;
      this.state = 'ready';
      this.o.logger?.info('search.index.rebuilt', { size: built.index.size, reason });
      try {
        this.saveNow(built.index, space, built.seq);
      } catch (e) {
        // The rebuilt index serves this session all the same; the files on disk (and a marker
        // left by a load given up) stay until a later save succeeds.
        this.o.logger?.warn('search.index.save.failed', { message: toAppError(e).message });
        this.markDirty();
      }
      this.catchUp();
    } catch (e) {
      if (token !== this.token) return;
      this.state = 'error';
      this.error = toAppError(e).message;
      this.o.logger?.error('search.index.rebuild.failed', { message: this.error });
    }
    this.emit();
  }

  /** Reads every embedding of the space page by page, yielding between pages so the app stays responsive. */
  private async buildFromCatalog(space: EmbeddingSpace, token: number): Promise<{ index: VectorIndex; seq: number } | null> {
    // Changes after this point are replayed afterwards; replaying one already read is harmless.
    const seq = this.o.store.lastChangeSeq();
    const index = this.o.createIndex();
    let after = -1;
    for (;;) {
      const rows = this.o.store.vectorPage(space, after, PAGE_ROWS);
      if (rows.length === 0) break;
      this.addRows(index, rows);
      after = rows[rows.length - 1]!.segmentId;
      await yieldToLoop();
      if (token !== this.token) return null;
    }
    return { index, seq };
  }

  /** Adds rows whose dimension fits the index (stored-rows.ts); the others are counted. */
  private addRows(index: VectorIndex, rows: readonly StoredVector[]): void {
    const { ids, vectors, skipped } = fittingRows(rows, index.dimension);
    this.skippedDims += skipped;
    if (ids.length > 0) index.addBatch(ids, vectors);
  }

  private catchUpSafely(): void {
    try {
      this.catchUp();
    } catch (e) {
      this.o.logger?.warn('search.index.catchup.failed', { message: toAppError(e).message });
    }
  }

  /** Replays the change log since the last applied sequence number. */
  private catchUp(): void {
    const index = this.index;
    const space = this.currentSpace;
    if (!index || !space || this.state !== 'ready') return;
    const max = this.o.store.lastChangeSeq();
    if (max <= this.appliedSeq) return;
    if (max - this.appliedSeq > this.o.rebuildBacklog) {
      this.startBackgroundRebuild(space);
      return;
    }
    const before = index.size;
    const ids = this.o.store.changedSegmentIds(this.appliedSeq, max);
    for (let i = 0; i < ids.length; i += PAGE_ROWS) {
      const chunk = ids.slice(i, i + PAGE_ROWS);
      const rows = this.o.store.vectorsOf(chunk);
      const present = new Map(rows.filter((r) => r.model === space.model && r.region === space.region).map((r) => [r.segmentId, r]));
      for (const id of chunk) if (!present.has(id)) index.remove(id);
      // A replaced vector goes through add, which replaces.
      this.addRows(index, [...present.values()]);
    }
    this.appliedSeq = max;
    this.o.onChanged?.(ids);
    this.markDirty();
    if (index.size !== before) this.emit();
  }

  private startBackgroundRebuild(space: EmbeddingSpace): void {
    if (this.backgroundRebuild) return;
    const token = this.token;
    this.backgroundRebuild = (async () => {
      const built = await this.buildFromCatalog(space, token);
      if (!built || token !== this.token) return;
      this.index = built.index;
      this.o.onChanged?.(null);
      this.appliedSeq = built.seq;
      this.origin = 'rebuilt (large backlog of changes)';
      this.saveNow(built.index, space, built.seq);
      this.catchUp();
      this.emit();
    })()
      .catch((e) => this.o.logger?.error('search.index.rebuild.failed', { message: toAppError(e).message }))
      .finally(() => {
        this.backgroundRebuild = null;
      });
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      try {
        this.flush();
      } catch (e) {
        this.o.logger?.warn('search.index.save.failed', { message: toAppError(e).message });
      }
    }, this.o.saveDelayMs);
    this.saveTimer.unref();
  }

  private saveNow(index: VectorIndex, space: EmbeddingSpace, seq: number): void {
    saveIndex(this.dirFor(space), index, seq);
    // The log before `seq` is in the saved file; the rest stays for the next replay.
    this.o.store.recordSaved(space, seq);
    this.dirty = false;
    // These files replace the ones a crash-loop marker spoke of, unless the marker is a loaded
    // index's that has not settled yet (the index in memory came from those very files).
    if (!this.settleLoad) clearLoadingMarker(this.dirFor(space));
  }

  /** Rows skipped because their vector did not fit the index (another dimension, zero or damaged). */
  get skipped(): number {
    return this.skippedDims;
  }
}
