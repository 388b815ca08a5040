import fs from 'node:fs';
import path from 'node:path';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { JobQueue } from '../../../src-main/core/pipeline/queue/job-queue';
import { watchNetwork } from '../../../src-main/core/pipeline/watch/network-watch';
import { createCollectionsModule, type CollectionsModule, type CollectionsModuleOptions } from '../../../src-main/core/collections/collections-module';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { probeFile } from '../../../src-main/core/media/probe';
import { createDispatcher } from '../../../src-main/core/rpc/dispatcher';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import type { Handlers } from '../../../src-main/core/rpc/handlers';
import { createServiceClient, type ServiceClient } from '../../../src-main/core/service';
import type { ArgsIn, EventPayload, MethodName, Result } from '../../../src-shared/contract';
import { AppError } from '../../../src-shared/errors';

export const API_KEY = 'collections-test-key';

/** Shared by the collection tests: a real catalog file, clips on a volume, the module against an emulator URL. */
export function serviceClient(url: string): ServiceClient {
  return createServiceClient({
    region: 'asia',
    baseUrls: { asia: url },
    apiKey: API_KEY,
    authHeader: 'x-api-key',
    qps: 200,
    concurrency: 8,
    timeoutMs: 20_000,
    retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 200 },
  });
}

let volumeSeq = 0;

/** Catalogues files the way the library does (a volume row, a clip row with probe facts). */
export async function catalogue(db: CatalogDb, files: string[]): Promise<number[]> {
  const ids: number[] = [];
  const t = Date.now();
  for (const file of files) {
    const mount = path.dirname(file);
    let vol = db.prepare('SELECT id FROM volumes WHERE mount_path = ?').get(mount) as { id: number } | undefined;
    if (!vol) {
      const info = db.prepare('INSERT INTO volumes (volume_key, mount_path, last_seen_at) VALUES (?, ?, ?)').run(`test-${process.pid}-${++volumeSeq}`, mount, t);
      vol = { id: Number(info.lastInsertRowid) };
    }
    const st = fs.statSync(file);
    let container: string | null = null;
    let duration: number | null = null;
    try {
      const { info } = await probeFile(file, { ffprobe: ffPath('ffprobe') });
      container = info.container;
      duration = info.durationS;
    } catch {
      // An unreadable file stays catalogued without probe facts, as the library keeps it.
    }
    const info = db
      .prepare(
        `INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, container, duration_s, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(vol.id, path.basename(file), path.basename(file), st.size, Math.round(st.mtimeMs), container ? 'probed' : 'error', container, duration, t, t);
    ids.push(Number(info.lastInsertRowid));
  }
  return ids;
}

export interface Harness {
  db: CatalogDb;
  events: EventBus;
  module: CollectionsModule;
  /** The durable job queue the module's stages run on (as in the app). */
  queue: JobQueue;
  /** Resolves once the queue has nothing running or waiting. */
  idle(timeoutMs?: number): Promise<void>;
  seen: EventPayload<'collections.video'>[];
  call<M extends MethodName>(method: M, args: ArgsIn<M>): Promise<Result<M>>;
  close(): Promise<void>;
}

/**
 * The collections module as the app builds it, on a durable job queue over the same catalog,
 * called through the real dispatcher so every argument and result goes through the contract's schemas.
 */
export function harness(o: { catalog: string; cacheDir: string; url: string; networkSlots?: number } & Partial<CollectionsModuleOptions>): Harness {
  const db = openCatalog(o.catalog);
  const events = new EventBus();
  const client = serviceClient(o.url);
  const { catalog: _c, url: _u, networkSlots, ...rest } = o;
  const queue = new JobQueue({ db, concurrency: { network: networkSlots ?? 2 }, backoff: { baseMs: 100, maxMs: 400 } });
  // As in the app: an offline block is lifted by the network watch's probes.
  const watch = watchNetwork(queue, { client: () => client, offlineProbe: { initialMs: 100, maxMs: 400 } });
  const module = createCollectionsModule({
    queue,
    recheckMs: 60,
    db,
    events,
    region: () => 'asia',
    client: () => client,
    ffmpeg: () => ffPath('ffmpeg'),
    ...rest,
  });
  const seen: EventPayload<'collections.video'>[] = [];
  events.subscribe((event, payload) => {
    if (event === 'collections.video') seen.push(payload as EventPayload<'collections.video'>);
  });
  const dispatch = createDispatcher(module.handlers as unknown as Handlers);
  queue.start();
  return {
    db,
    events,
    module,
    queue,
    idle: async (timeoutMs = 60_000) => {
      await waitFor('the job queue to be idle', () => queue.isIdle(), timeoutMs);
    },
    seen,
    async call(method, args) {
      const env = await dispatch(method, args, { transport: 'test' });
      if (!env.ok) throw AppError.from(env.error);
      return env.value as Result<typeof method>;
    },
    async close() {
      watch.stop();
      await queue.stop();
      db.close();
    },
  };
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 30_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const UPLOAD_ROUTE = 'POST /collections/{collection_id}/videos/upload';
