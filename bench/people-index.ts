import fs from 'node:fs';
import path from 'node:path';
import { openCatalog, type CatalogDb } from '../src-main/core/catalog/open-catalog';
import { createLibraryService } from '../src-main/core/library/library-handlers';
import { createPeopleModule } from '../src-main/core/people/people-module';
import { appCpuSlots } from '../src-main/core/pipeline/app-pipeline';
import { IndexingPipeline } from '../src-main/core/pipeline/indexing-pipeline';
import { EventBus } from '../src-main/core/rpc/event-bus';
import { createSearchModule, searchServiceBinding } from '../src-main/core/search/search-module';
import { createServiceClient, type ServiceClient } from '../src-main/core/service/client';
import { startEmulatorProcess, threadCpuS } from './emulator-process';

const KEY = 'bench-people-key-0123456789';

/**
 * A library as the app runs it for bench:people: a catalog, the whole indexing pipeline against
 * the emulator in its own process (segments are what search returns), the people module told of
 * every analysed clip and search reading where people are from it, as catalog-app.ts wires them. Folders are imported as the editor imports a
 * card; `importAndWait` returns when every clip of the folder is indexed or failed.
 */
export async function openPeopleLibrary(work: string, recognition = true) {
  const emu = await startEmulatorProcess(`${KEY}:100000:100000000`);
  let peopleServiceS = 0;
  const db: CatalogDb = openCatalog(path.join(work, 'catalog.sqlite'));
  const events = new EventBus();
  const people = createPeopleModule({ db, events, recognition: () => recognition });
  let client: ServiceClient | null = null;
  const service = {
    client: () =>
      (client ??= createServiceClient({ region: 'asia', baseUrls: { asia: emu.url }, apiKey: KEY, authHeader: 'x-api-key', qps: 1000, concurrency: 16, timeoutMs: 60_000 })),
    configured: () => true,
    identity: () => ({ region: 'asia', model: `service@${emu.url}` }),
  };
  const cacheDir = path.join(work, 'cache');
  const pipeline = new IndexingPipeline({
    db,
    events,
    service,
    cacheDir,
    autoIndex: true,
    concurrency: { cpu: appCpuSlots(), network: 3 },
    proxySettings: () => ({ policy: 'never', budgetBytes: 0 }),
    faceRecognition: () => recognition,
    onClipAnalysed: (clipId) => {
      // The main thread's own CPU in the people service (its call is synchronous): one part of what recognition adds there.
      const t0 = threadCpuS();
      people.service.clipAnalysed(clipId);
      peopleServiceS += threadCpuS() - t0;
    },
  });
  const search = createSearchModule({ db, indexDir: path.join(work, 'search-index'), ...searchServiceBinding(service), events, presence: people.presence });
  void search.start();
  const library = createLibraryService({ db, events, cacheDir, indexClips: (ids, o) => void pipeline.enqueueClips(ids, o), volumePollMs: 0 });
  pipeline.start();
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

  return {
    db,
    people,
    /** CPU seconds the main thread has spent in the people service (`clipAnalysed`) so far. */
    peopleServiceS: () => peopleServiceS,
    /** `@Name` typed in the search box alone: every moment listed, page after page. */
    async momentsOf(name: string): Promise<Array<{ clipId: number; inFrame: number; outFrame: number }>> {
      const out: Array<{ clipId: number; inFrame: number; outFrame: number }> = [];
      for (let offset = 0; ; offset += 500) {
        const r = await search.service.text({ text: `@${name}`, topK: 500, offset, filters: {}, collections: false });
        if (r.cannotRun) throw new Error(`@${name}: ${r.cannotRun.message}`);
        for (const c of r.results) for (const m of [c, ...c.more]) out.push({ clipId: c.clipId, inFrame: m.inFrame, outFrame: m.outFrame });
        if (!r.page.hasMore) return out;
      }
    },
    async importAndWait(folder: string): Promise<{ wallS: number; failed: Array<{ file: string; msg: string }> }> {
      const before = count('SELECT COUNT(*) AS n FROM clips');
      const indexedBefore = count('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL');
      const expected = before + fs.readdirSync(folder).filter((f) => !f.startsWith('.')).length;
      const t0 = performance.now();
      const imported = library.handlers['library.import']({ paths: [folder] }, { transport: 'test' });
      let lastLog = 0;
      await new Promise<void>((resolve, reject) => {
        const tick = setInterval(() => {
          try {
            const clips = count('SELECT COUNT(*) AS n FROM clips');
            const indexed = count('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL');
            const failed = count("SELECT COUNT(DISTINCT clip_id) AS n FROM jobs WHERE state = 'failed'");
            const s = (performance.now() - t0) / 1000;
            if (s - lastLog > 15) {
              lastLog = s;
              console.log(`  ${s.toFixed(0)} s: ${clips - before} of ${expected - before} catalogued, ${indexed - indexedBefore} searchable, ${failed} failed`);
            }
            if (clips >= expected && indexed + failed >= expected) {
              clearInterval(tick);
              resolve();
            }
          } catch (e) {
            clearInterval(tick);
            reject(e as Error);
          }
        }, 200);
      });
      await imported;
      const failed = db.prepare("SELECT DISTINCT c.file_name AS file, j.last_error_message AS msg FROM jobs j JOIN clips c ON c.id = j.clip_id WHERE j.state = 'failed'").all() as Array<{ file: string; msg: string }>;
      return { wallS: (performance.now() - t0) / 1000, failed };
    },
    async close(): Promise<void> {
      library.dispose();
      await pipeline.stop();
      await search.dispose();
      db.close();
      await emu.close();
    },
  };
}

export type PeopleLibrary = Awaited<ReturnType<typeof openPeopleLibrary>>;
