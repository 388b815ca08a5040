import type { libraryMethods, ImportSummary, ImportIssue } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { Logger } from '../util/logger';
import { getClipDetail, listClips } from './clip-store';
import { importPaths } from './import-library';
import { MediaQueue } from './media-queue';
import type { StageOptions } from './media-stages';
import { relinkFolder } from './relink';
import { listVolumes, refreshVolumes } from './volume-store';
import { defaultVolumeResolver } from './volumes/default-resolver';
import type { VolumeResolver } from './volumes/volume-resolver';

export interface LibraryDeps {
  db: CatalogDb;
  events: EventBus;
  /** App cache folder; thumbnails go to <cacheDir>/thumbs (see clip-paths.ts thumbnailDir). */
  cacheDir: string;
  logger?: Logger;
  resolver?: VolumeResolver;
  /** ffmpeg/ffprobe chosen in Settings, read at each use. */
  tools?: () => { ffmpeg?: string; ffprobe?: string };
  /**
   * Who makes shots and thumbnails for probed clips. Absent: the built-in MediaQueue. The job
   * pipeline passes its own enqueue here and drives probeClip/detectShots/makeThumbnails itself.
   */
  scheduleMedia?: (clipIds: number[]) => void;
  /** Re-queue clips left half-done by a previous run (default true). */
  resumeOnStart?: boolean;
  /** How often connected drives are checked, in ms (default 5000; 0 turns the timer off). */
  volumePollMs?: number;
  probe?: StageOptions['probe'];
  /** Aborting it stops imports and the built-in queue (kills their ffmpeg children): pass the app's shutdown signal. */
  signal?: AbortSignal;
}

export interface LibraryService {
  handlers: HandlersFor<typeof libraryMethods>;
  /** The built-in queue, when no scheduleMedia was given. */
  queue: MediaQueue | null;
  /** Checks drives now; emits catalog.changed when one came or went. */
  pollVolumes(): void;
  dispose(): void;
}

interface ImportRow {
  id: number;
  roots_json: string;
  state: ImportSummary['state'];
  added: number;
  updated: number;
  unchanged: number;
  relocated: number;
  missing: number;
  failed: number;
  skipped: number;
  ignored: number;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

export function createLibraryService(deps: LibraryDeps): LibraryService {
  const { db, events } = deps;
  const resolver = deps.resolver ?? defaultVolumeResolver();
  const tools = () => deps.tools?.() ?? {};
  const queue = deps.scheduleMedia
    ? null
    : new MediaQueue(db, {
        cacheDir: deps.cacheDir,
        tools: deps.tools,
        logger: deps.logger,
        probe: deps.probe,
        onClipDone: (clipId) => events.emit('catalog.changed', { reason: 'media', clipIds: [clipId] }),
        onState: (s) => events.emit('library.mediaQueue', s),
      });
  const schedule = (ids: number[]) => {
    if (ids.length === 0) return;
    if (deps.scheduleMedia) deps.scheduleMedia(ids);
    else queue!.enqueue(ids);
  };

  let lastPoll = 0;
  const pollVolumes = () => {
    lastPoll = Date.now();
    try {
      const changed = refreshVolumes(db, resolver);
      if (changed.length > 0) {
        events.emit('catalog.changed', { reason: 'volumes' });
        // A drive that came back may hold clips whose thumbnails were never made.
        const waiting = db
          .prepare(
            `SELECT c.id FROM clips c WHERE c.status IN ('pending', 'probed') AND c.missing_at IS NULL
             AND c.volume_id IN (SELECT value FROM json_each(?)) AND c.volume_id IN (SELECT id FROM volumes WHERE online = 1)`,
          )
          .all(JSON.stringify(changed)) as { id: number }[];
        schedule(waiting.map((r) => r.id));
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

  if (deps.resumeOnStart !== false) {
    setImmediate(() => {
      if (disposer.signal.aborted) return;
      try {
        pollVolumes();
        const rows = db
          .prepare(
            `SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id
             WHERE c.status IN ('pending', 'probed') AND c.missing_at IS NULL AND v.online = 1 ORDER BY c.id`,
          )
          .all() as { id: number }[];
        schedule(rows.map((r) => r.id));
      } catch (e) {
        deps.logger?.warn('library.resume_failed', { message: (e as Error).message });
      }
    });
  }

  const issuesOf = (importId: number): ImportIssue[] =>
    db.prepare('SELECT path, code, reason FROM import_issues WHERE import_id = ? ORDER BY id LIMIT 300').all(importId) as ImportIssue[];

  const handlers: HandlersFor<typeof libraryMethods> = {
    'library.import': ({ paths }) => {
      const run = importChain.then(async () => {
        const t = tools();
        let lastChange = 0;
        const res = await importPaths(db, paths, {
          resolver,
          signal: disposer.signal,
          ffprobe: t.ffprobe,
          probe: deps.probe,
          onCatalogued: (clipIds) => {
            lastChange = Date.now();
            events.emit('catalog.changed', { reason: 'import', clipIds });
          },
          onProgress: (p) => {
            events.emit('library.importProgress', p);
            // Long probing runs: let the grid pick up metadata every couple of seconds.
            if (p.phase === 'probing' && Date.now() - lastChange > 2000) {
              lastChange = Date.now();
              events.emit('catalog.changed', { reason: 'import' });
            }
          },
        });
        events.emit('catalog.changed', { reason: 'import', clipIds: res.touched });
        schedule(res.needMedia);
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
    },
    'library.list': (args) => {
      if (Date.now() - lastPoll > 3000) pollVolumes();
      return listClips(db, args);
    },
    'library.get': ({ clipId }) => getClipDetail(db, clipId),
    'library.relink': async ({ fromPath, toPath }) => {
      const res = await relinkFolder(db, fromPath, toPath, { resolver });
      if (res.relinked > 0) events.emit('catalog.changed', { reason: 'relink' });
      return res;
    },
    'library.volumes': () => {
      pollVolumes();
      return { volumes: listVolumes(db) };
    },
    'library.imports': ({ limit }) => {
      const rows = db.prepare('SELECT * FROM imports ORDER BY id DESC LIMIT ?').all(limit) as ImportRow[];
      return {
        imports: rows.map((r) => {
          const issues = issuesOf(r.id);
          return {
            importId: r.id,
            state: r.state,
            roots: JSON.parse(r.roots_json) as string[],
            added: r.added,
            updated: r.updated,
            unchanged: r.unchanged,
            relocated: r.relocated,
            missing: r.missing,
            failed: r.failed,
            skipped: r.skipped,
            ignored: r.ignored,
            issues,
            issuesTruncated: r.skipped + r.failed > issues.length,
            error: r.error,
            startedAt: r.started_at,
            finishedAt: r.finished_at,
          };
        }),
      };
    },
    'library.retry': ({ clipIds }) => {
      const ids = db
        .prepare(
          `UPDATE clips SET status = 'pending', status_reason = NULL, error_kind = NULL, shots_at = NULL, thumbs_at = NULL, updated_at = ?
           WHERE id IN (SELECT value FROM json_each(?)) RETURNING id`,
        )
        .all(Date.now(), JSON.stringify(clipIds)) as { id: number }[];
      events.emit('catalog.changed', { reason: 'retry', clipIds: ids.map((r) => r.id) });
      schedule(ids.map((r) => r.id));
      return { queued: ids.length };
    },
  };

  const dispose = () => {
    disposer.abort();
    if (timer) clearInterval(timer);
    queue?.dispose();
  };
  deps.signal?.addEventListener('abort', dispose, { once: true });
  if (deps.signal?.aborted) dispose();

  return { handlers, queue, pollVolumes, dispose };
}

/**
 * The Library's slice of the contract, for the app core to merge into its handlers. Pass
 * deps.signal (aborted on shutdown) so the background queue's ffmpeg children die with the app,
 * or use createLibraryService and call dispose().
 */
export function createLibraryHandlers(deps: LibraryDeps): HandlersFor<typeof libraryMethods> {
  return createLibraryService(deps).handlers;
}
