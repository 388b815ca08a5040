import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { Person } from '../../../src-shared/contract/people';
import { clipsMissingIdentities } from '../../../src-main/core/analysis/face-identity-store';
import { EMBEDDING_MODEL_FILE } from '../../../src-main/core/analysis/resource-paths';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-people-backfill-4411';

/**
 * Issue 39: face recognition turned on after clips were indexed. Two face clips are indexed with it
 * off (the app as web mode runs it, the emulator as the service): their faces are found, without
 * identities, and nobody is grouped. Turned on in Settings, the one runner's background lane gives
 * those clips their identities (a job per clip of the `identities` stage on the same queue as every
 * job), the people module groups them, and nothing more goes to the service. Then the app's
 * embedding model changes (an update): the faces the earlier model embedded are embedded again the
 * same way, and the editor's name comes back on them.
 */
describe('face identities backfilled when recognition is turned on', () => {
  const tmp = tempDir('rs-people-backfill-');
  const card = path.join(tmp.dir, 'card');
  let emu: EmulatorHandle;
  let app: WebApp;
  const call = async <T = unknown>(m: MethodName, a: unknown): Promise<T> => {
    const env = await app.core.dispatch(m, a, { transport: 'test' });
    if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
    return env.value as T;
  };
  const count = (sql: string) => (app.core.db.prepare(sql).get() as { n: number }).n;

  beforeAll(async () => {
    fs.mkdirSync(card);
    for (const n of ['intel_asl_book.mkv', 'intel_asl_sister.mkv']) fs.copyFileSync(mediaFile(n), path.join(card, n));
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000, faceRecognition: false });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [card] });
    await waitUntil(() => count('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL') === 2, 150_000, 'both clips indexed');
  }, 200_000);

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('indexed with recognition off: faces, no identities, nobody grouped, no backfill queued', async () => {
    expect(count('SELECT COUNT(*) AS n FROM shot_faces')).toBeGreaterThan(4);
    expect(count('SELECT COUNT(*) AS n FROM face_identity')).toBe(0);
    expect(clipsMissingIdentities(app.core.db, EMBEDDING_MODEL_FILE)).toHaveLength(2);
    expect((await call<{ people: Person[] }>('people.list', {})).people).toEqual([]);
    expect(count("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'identities'")).toBe(0);
  });

  it('turned on: the background lane gives every face its identity and the people are grouped, nothing sent again', async () => {
    const uploads = count('SELECT COUNT(*) AS n FROM tensor_uploads');
    const segments = count('SELECT COUNT(*) AS n FROM segments');
    const sent = emu.sends().length;
    await call('settings.update', { faceRecognition: true });
    // One job per clip, on the one queue, in the background lane (Jobs can pause it as it does proxies).
    const lane = (await call<{ background: { stage: string; queued: number; running: number }[] }>('jobs.summary', {})).background;
    expect(lane.find((l) => l.stage === 'identities')).toBeDefined();
    await waitUntil(() => count("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'identities' AND state = 'done'") === 2, 120_000, 'both clips given identities');
    expect(clipsMissingIdentities(app.core.db, EMBEDDING_MODEL_FILE)).toEqual([]);
    expect(count('SELECT COUNT(*) AS n FROM face_identity WHERE embedding IS NOT NULL')).toBeGreaterThan(4);
    const people = (await call<{ people: Person[] }>('people.list', {})).people;
    expect(people.length).toBe(2);
    expect(new Set(people.map((p) => p.best[0]!.clipId)).size).toBe(2);
    // Nothing of it went to the service: the clips' plans and uploads are as they were.
    expect(count('SELECT COUNT(*) AS n FROM tensor_uploads')).toBe(uploads);
    expect(count('SELECT COUNT(*) AS n FROM segments')).toBe(segments);
    expect(emu.sends().length).toBe(sent);
    // Settings saved again with nothing missing queues nothing more.
    await call('settings.update', { faceRecognition: true });
    expect(count("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'identities'")).toBe(2);
  }, 150_000);

  it('another embedding model: the faces the earlier one embedded are embedded again, and the name the editor gave comes back', async () => {
    const people = (await call<{ people: Person[] }>('people.list', {})).people;
    await call('people.name', { personId: people[0]!.id, name: 'Signer' });
    // What an update of the app finds: every embedding made by a model it no longer runs.
    app.core.db.prepare("UPDATE face_identity SET model = 'mobilefacenet-old.onnx' WHERE embedding IS NOT NULL").run();
    expect(clipsMissingIdentities(app.core.db, EMBEDDING_MODEL_FILE)).toHaveLength(2);
    // Measured by the model the app runs, the same rows miss nothing.
    expect(clipsMissingIdentities(app.core.db, 'mobilefacenet-old.onnx')).toEqual([]);
    await call('settings.update', { faceRecognition: true });
    // Each clip's done job is replaced by a new one, which runs on the background lane.
    expect(count("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'identities' AND state <> 'done'")).toBe(2);
    await waitUntil(() => clipsMissingIdentities(app.core.db, EMBEDDING_MODEL_FILE).length === 0, 120_000, 'both clips embedded again');
    await waitUntil(() => count("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'identities' AND state <> 'done'") === 0, 30_000, 'the jobs done');
    expect(count("SELECT COUNT(*) AS n FROM face_identity WHERE embedding IS NOT NULL AND model <> '" + EMBEDDING_MODEL_FILE + "'")).toBe(0);
    const after = (await call<{ people: Person[] }>('people.list', {})).people;
    expect(after.filter((p) => p.name === 'Signer')).toHaveLength(1);
  }, 150_000);
});
