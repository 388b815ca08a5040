import type { ClipIndexState } from '../../../src-shared/contract/jobs';
import type { ClipSummary, ImportSummary, libraryMethods } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { Logger } from '../util/logger';
import { clipNames } from './clip-store';
import { getClipDetail, listClipIds, listClips } from './library-page-store';
import { clipsToResume } from './clip-place-store';
import { applyClipEvent } from './clips-repository';
import { importPaths } from './import/import-library';
import { importSummaries } from './import/import-store';
import { relinkFolder } from './relink';
import { findReturnedFiles } from './returned-files';
import { listVolumes, refreshVolumes } from './volume-store';
import { defaultVolumeResolver } from './volumes/default-resolver';
import type { VolumeResolver } from './volumes/volume-resolver';
import { expandHome } from '../util/home-path';

export interface LibraryDeps {
  db: CatalogDb;
  events: EventBus;
  /** App cache folder; thumbnails go to <cacheDir>/thumbs (see clip-paths.ts thumbnailDir). */
  cacheDir: string;
  logger?: Logger;
  resolver?: VolumeResolver;
  /**
   * Hands clips to the indexing pipeline (the one runner: it makes posters, shots and thumbnails
   * and indexes). The only place the library enqueues work; `restart` runs a clip from the start.
   */
  indexClips: (clipIds: number[], opts?: { restart?: boolean }) => void;
  /** The pipeline's fold of each clip's jobs, the words the Jobs view shows (absent: cards carry null). */
  indexStates?: (clipIds: readonly number[]) => ReadonlyMap<number, ClipIndexState>;
  /** Check drives once right after start (default true). */
  pollOnStart?: boolean;
  /** How often connected drives are checked, in ms (default 5000; 0 turns the timer off). */
  volumePollMs?: number;
  /** Aborting it stops imports: pass the app's shutdown signal. */
  signal?: AbortSignal;
  /** Throws when an import must not start (no room on the disk to catalogue it). */
  beforeImport?: () => void;
  /** After each import has catalogued what it found (the catalog's first backup waits for clips). */
  afterImport?: (summary: ImportSummary) => void;
}

export interface LibraryService {
  handlers: HandlersFor<typeof libraryMethods>;
  /** Checks drives now; emits catalog.changed when one came or went. */
  pollVolumes(): void;
  /** Imports files and folders as a drop does (the one import path): what `library.import` runs. */
  importPaths(paths: readonly string[], origin?: ImportSummary['origin']): Promise<ImportSummary>;
  dispose(): void;
}

export function createLibraryService(deps: LibraryDeps): LibraryService {
  const { db, events } = deps;
  const resolver = deps.resolver ?? defaultVolumeResolver();
  const withIndexing = <T extends ClipSummary>(items: T[]): T[] => {
    const states = deps.indexStates?.(items.map((c) => c.id));
    return states ? items.map((c) => ({ ...c, indexing: states.get(c.id) ?? null })) : items;
  };
  const schedule = (ids: number[], opts?: { restart?: boolean }) => {
    if (ids.length > 0) deps.indexClips(ids, opts);
  };

  let lastPoll = 0;
  let missingCursor = 0;
  const pollVolumes = () => {
    lastPoll = Date.now();
    try {
      const changed = refreshVolumes(db, resolver);
      const returned = findReturnedFiles(db, missingCursor);
      missingCursor = returned.nextAfter;
      if (changed.length > 0 || returned.back.length > 0) {
        events.emit('catalog.changed', { reason: 'volumes' });
        // A drive or folder that came back: every clip it interrupted carries on, whatever its
        // stage (the pipeline wakes the jobs that wait for the file, and leaves indexed clips be: an
        // indexed one is handed over only while its background rate reading waits for the file).
        schedule(clipsToResume(db, changed, returned.back));
      }
    } catch (e) {
      deps.logger?.warn('library.volumes.refresh_failed', { message: (e as Error).message });
    }
  };
  const pollMs = deps.volumePollMs ?? 5000;
  const timer = pollMs > 0 ? setInterval(pollVolumes, pollMs) : null;
  timer?.unref();

  // Imports run one at a time: two drops of overlapping folders must not race on the same rows.
  let importChain: Promise<unknown> = Promise.resolve();
  const disposer = new AbortController();

  // Clips left half-done by the last run are the pipeline's to pick up (its start queues every
  // clip not indexed); the library only refreshes which drives are here.
  if (deps.pollOnStart !== false) {
    setImmediate(() => {
      if (!disposer.signal.aborted) pollVolumes();
    });
  }

  const importRoots = (paths: readonly string[], origin: ImportSummary['origin'] = 'editor'): Promise<ImportSummary> => {
    deps.beforeImport?.();
    const run = importChain.then(async () => {
      const res = await importPaths(db, paths, {
        origin,
        resolver,
        signal: disposer.signal,
        onProgress: (p) => events.emit('library.importProgress', p),
      });
      events.emit('catalog.changed', { reason: 'import', clipIds: res.touched });
      deps.afterImport?.(res.summary);
      // The pipeline probes them (its first stage) and makes every poster before analysing any clip.
      schedule([...new Set([...res.touched, ...res.needMedia])].sort((a, b) => a - b));
      deps.logger?.info('library.import', {
        importId: res.summary.importId,
        added: res.summary.added,
        unchanged: res.summary.unchanged,
        failed: res.summary.failed,
        skipped: res.summary.skipped,
      });
      return res.summary;
    });
    importChain = run.catch(() => undefined);
    return run;
  };

  const handlers: HandlersFor<typeof libraryMethods> = {
    'library.import': ({ paths }) => importRoots(paths.map((p) => expandHome(p))),
    'library.list': (args) => {
      if (Date.now() - lastPoll > 3000) pollVolumes();
      const res = listClips(db, args);
      return { ...res, items: withIndexing(res.items) };
    },
    'library.ids': (args) => ({ ids: listClipIds(db, args) }),
    'library.get': ({ clipId }) => withIndexing([getClipDetail(db, clipId)])[0]!,
    'library.relink': async ({ fromPath, toPath }) => {
      const res = await relinkFolder(db, fromPath, toPath, { resolver });
      if (res.relinked > 0) events.emit('catalog.changed', { reason: 'relink' });
      return res;
    },
    'library.volumes': () => {
      pollVolumes();
      return { volumes: listVolumes(db) };
    },
    'library.imports': ({ limit }) => ({ imports: importSummaries(db, limit) }),
    'library.retry': ({ clipIds }) => {
      const ids = db.transaction(() => {
        const known = [...clipNames(db, clipIds).keys()];
        for (const id of known) applyClipEvent(db, id, { type: 'processAgain' }, { status_reason: null, error_kind: null });
        return known;
      })();
      events.emit('catalog.changed', { reason: 'retry', clipIds: ids });
      // "Process again": from the first stage, even for a clip that was indexed or failed.
      schedule(ids, { restart: true });
      return { queued: ids.length };
    },
  };

  const dispose = () => {
    disposer.abort();
    if (timer) clearInterval(timer);
  };
  deps.signal?.addEventListener('abort', dispose, { once: true });
  if (deps.signal?.aborted) dispose();

  return { handlers, pollVolumes, importPaths: importRoots, dispose };
}
