import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fps, parseRational } from '../../../src-shared/timecode';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { probeFile } from '../../../src-main/core/media/probe';
import { ClipDecoder } from '../../../src-main/core/media/clip-decoder';
import { runTool } from '../../../src-main/core/media/run-process';
import { defaultVolumeResolver } from '../../../src-main/core/library/volumes/default-resolver';
import { upsertVolume } from '../../../src-main/core/library/volume-store';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import type { EmbeddingSpace } from '../../../src-main/core/search/index/embedding-space';
import { createSearchModule, type SearchModule, type SearchModuleOptions } from '../../../src-main/core/search/search-module';
import { ServiceClient, type ServiceConfig } from '../../../src-main/core/service';
import { encodeUint8Tensor } from '../../../src-main/core/tensors/tensor-codec';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/server';
import { tempDir } from '../../helpers/paths';
import { makeColourClip } from '../../helpers/footage/test-clips';
import { insertClip, insertPoster, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding, putServiceTags, TEST_SPACE } from '../../helpers/catalog/search-catalog';

/**
 * Search fixtures made the way the app makes them, minus the job queue: real clips decoded with
 * ffmpeg, small uint8 video tensors uploaded to the service (the emulator), asynchronous embedding
 * and tagging by tensor keys, polled, stored as catalog rows.
 */

export interface FixtureClip {
  name: string;
  file: string;
  /** Known shot boundaries (generated clips); real clips are one shot. */
  shots?: { startS: number; endS: number }[];
  /** Catalogued with its shots and posters but never sent to the service: no segment (its `segments` are []). */
  unsent?: boolean;
}

export interface EmbeddedSegment {
  id: number;
  shotId: number;
  startS: number;
  endS: number;
}

export interface EmbeddedClip {
  clipId: number;
  name: string;
  file: string;
  durationS: number;
  height: number;
  segments: EmbeddedSegment[];
}

const TENSOR_SIDE = 32;
const TENSOR_FPS = 2;

async function ffmpeg(args: string[]): Promise<void> {
  const r = await runTool(ffPath('ffmpeg'), ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);
  if (r.code !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${r.stderr}`);
}

const probeSchema = z.object({
  streams: z.array(z.object({ width: z.number(), height: z.number(), avg_frame_rate: z.string().optional() })).min(1),
  format: z.object({ duration: z.string() }),
});

export async function probe(file: string): Promise<{ durationS: number; width: number; height: number; fps: number | null }> {
  const r = await runTool(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,avg_frame_rate:format=duration', '-of', 'json', file]);
  const p = probeSchema.parse(JSON.parse(r.stdout.toString('utf8')));
  const rate = parseRational(p.streams[0]!.avg_frame_rate);
  return { durationS: Number(p.format.duration), width: p.streams[0]!.width, height: p.streams[0]!.height, fps: rate ? fps(rate) : null };
}

/**
 * Solid red, blue and green clips, the testsrc pattern, and a two-shot clip (green for 2 s, then
 * blue for 2 s) whose blue segment starts at 2 s: the player test seeks there.
 */
export async function makeColourClips(dir: string): Promise<FixtureClip[]> {
  fs.mkdirSync(dir, { recursive: true });
  const enc = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-r', '10'];
  const out: FixtureClip[] = [];
  for (const colour of ['red', 'blue', 'green']) {
    out.push({ name: colour, file: makeColourClip(dir, colour, colour, { seconds: 2, width: 320, height: 240 }), shots: [{ startS: 0, endS: 2 }] });
  }
  const pattern = path.join(dir, 'testsrc.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=320x240:d=2', ...enc, pattern]);
  out.push({ name: 'testsrc', file: pattern, shots: [{ startS: 0, endS: 2 }] });
  const twoShot = path.join(dir, 'green-then-blue.mp4');
  await ffmpeg([
    '-f', 'lavfi', '-i', 'color=c=0x10b020:s=320x240:d=2',
    '-f', 'lavfi', '-i', 'color=c=0x1030f0:s=320x240:d=2',
    '-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0[v]', '-map', '[v]', ...enc, '-g', '10', twoShot,
  ]);
  out.push({ name: 'green-then-blue', file: twoShot, shots: [{ startS: 0, endS: 2 }, { startS: 2, endS: 4 }] });
  return out;
}

/** Every decoded frame of a clip at TENSOR_SIDE², with its time. */
async function decodeSmall(file: string): Promise<{ frames: Uint8Array[]; times: number[] }> {
  const frames: Uint8Array[] = [];
  const geometry = { outWidth: TENSOR_SIDE, outHeight: TENSOR_SIDE, filter: `scale=${TENSOR_SIDE}:${TENSOR_SIDE}:flags=area` };
  const r = await new ClipDecoder(
    { filePath: file, startS: 0, outputs: [{ name: 'small', fps: 'every', geometry, pixFmt: 'rgb24' }], audioRate: null },
    { onFrame: (_o, rgb) => frames.push(rgb), onAudio: () => {} },
  ).run();
  return { frames, times: r.frameTimes };
}

/** Frames of [startS, endS) sampled at TENSOR_FPS, as one uint8 [T, H, W, 3] tensor. */
function segmentTensor(decoded: { frames: Uint8Array[]; times: number[] }, startS: number, endS: number) {
  const picked: Uint8Array[] = [];
  for (let t = startS; t < endS - 1e-6; t += 1 / TENSOR_FPS) {
    let best = -1;
    for (let i = 0; i < decoded.times.length; i++) {
      if (decoded.times[i]! >= endS) break;
      if (decoded.times[i]! <= t + 1e-6 || best < 0) best = i;
    }
    if (best >= 0) picked.push(decoded.frames[best]!);
  }
  if (picked.length === 0) picked.push(decoded.frames[0]!);
  const data = new Uint8Array(picked.length * TENSOR_SIDE * TENSOR_SIDE * 3);
  picked.forEach((f, i) => data.set(f, i * f.length));
  return encodeUint8Tensor(data, [picked.length, TENSOR_SIDE, TENSOR_SIDE, 3]);
}

let requestSeq = 0;

async function embedAndTag(client: ServiceClient, video: ReturnType<typeof encodeUint8Tensor>, tag: boolean): Promise<{ embedding: number[]; tagsRaw?: unknown; tags?: { shotSize?: string; cameraMovement?: string; shootingAngle?: string } }> {
  const id = `search-fixture-${process.pid}-${++requestSeq}`;
  const up = await client.uploadTensors({ service: 'embedding', request_id: `${id}-e`, video_input: video });
  const task = await client.encodeVideoAsync({ tensor: { video_input_key: up.videoInputKey! } });
  const done = await client.pollAsyncTask(task.requestId, { initialDelayMs: 60, maxDelayMs: 120, maxWaitMs: 30_000 });
  if (done.status !== 'completed' || !done.embedding) throw new Error(`embedding task ended ${done.status}: ${done.errorMessage ?? ''}`);
  if (!tag) return { embedding: done.embedding };
  const upT = await client.uploadTensors({ service: 'tagging', request_id: `${id}-t`, video_input: video });
  const t = await client.tagVideoAsync({ tensor: { video_input_key: upT.videoInputKey! } });
  const tdone = await client.pollAsyncTask(t.requestId, { initialDelayMs: 60, maxDelayMs: 120, maxWaitMs: 30_000 });
  return {
    embedding: done.embedding,
    tagsRaw: tdone.tagsRaw,
    tags: { shotSize: tdone.tags?.shotSize?.canonical, cameraMovement: tdone.tags?.cameraMovement?.canonical, shootingAngle: tdone.tags?.shootingAngle?.canonical },
  };
}

/** Splits a shot into segments of at most chunkS seconds, as the tensor profile does. */
function chunks(startS: number, endS: number, chunkS: number): { startS: number; endS: number }[] {
  const out: { startS: number; endS: number }[] = [];
  for (let s = startS; s < endS - 1e-6; s += chunkS) out.push({ startS: s, endS: Math.min(endS, s + chunkS) });
  return out;
}

export interface EmbedOptions {
  db: CatalogDb;
  client: ServiceClient;
  space: EmbeddingSpace;
  clips: FixtureClip[];
  /** Where the clips' volume is mounted (a folder holding every clip). */
  mount?: string;
  /**
   * Catalogue each clip on its real volume (the app's resolver: the key that survives replugging), as
   * an import does, so an app running over this catalog finds the clips online.
   */
  realVolumes?: boolean;
  /** With a thumbnail folder, a poster per shot is rendered into it. */
  thumbsDir?: string;
  chunkS?: number;
  tags?: boolean;
}

export async function embedClips(o: EmbedOptions): Promise<EmbeddedClip[]> {
  const volumes = new Map<string, number>();
  const resolver = o.realVolumes ? defaultVolumeResolver() : null;
  const volumeFor = (file: string) => {
    if (resolver) {
      const real = fs.realpathSync(file);
      const info = resolver.volumeFor(real);
      return { id: upsertVolume(o.db, info), rel: path.relative(info.mountPath, real).split(path.sep).join('/') };
    }
    const mount = o.mount ?? path.dirname(file);
    let id = volumes.get(mount) ?? (o.db.prepare('SELECT id FROM volumes WHERE mount_path = ?').pluck().get(mount) as number | undefined);
    if (id === undefined) id = insertVolume(o.db, mount);
    volumes.set(mount, id);
    return { id, rel: path.relative(mount, file).split(path.sep).join('/') };
  };
  // Probing, decoding and posters run side by side (small ffmpeg processes); rows are written in clip order.
  const prepared = await Promise.all(
    o.clips.map(async (c) => {
      const [info, decoded, fingerprint, media] = await Promise.all([probe(c.file), decodeSmall(c.file), fingerprintFile(c.file), probeFile(c.file)]);
      const shots = c.shots ?? [{ startS: 0, endS: info.durationS }];
      const posters = o.thumbsDir
        ? await Promise.all(
            shots.map(async (sh, idx) => {
              const rel = `search-fixture/${path.basename(c.file).replace(/\W+/g, '_')}-${idx}.jpg`;
              fs.mkdirSync(path.join(o.thumbsDir!, 'search-fixture'), { recursive: true });
              const mid = (sh.startS + sh.endS) / 2;
              await ffmpeg(['-ss', mid.toFixed(3), '-i', c.file, '-frames:v', '1', '-vf', 'scale=320:-2', path.join(o.thumbsDir!, rel)]);
              return { rel, mid };
            }),
          )
        : null;
      return { c, info, decoded, shots, posters, fingerprint, media: media.info };
    }),
  );
  const out: EmbeddedClip[] = [];
  const work: { seg: EmbeddedSegment; decoded: { frames: Uint8Array[]; times: number[] } }[] = [];
  for (const { c, info, decoded, shots, posters, fingerprint, media } of prepared) {
    const vol = volumeFor(c.file);
    const st = fs.statSync(c.file);
    // Catalogued as an import would: the app plays and hands out a clip only as the file it catalogued.
    const clipId = insertClip(o.db, { volumeId: vol.id, relPath: vol.rel, durationS: info.durationS, fps: info.fps, width: info.width, height: info.height, mtimeMs: st.mtimeMs, sizeBytes: st.size, fingerprint, media });
    const segments: EmbeddedSegment[] = [];
    for (const [idx, sh] of shots.entries()) {
      const shotId = insertShot(o.db, clipId, idx, sh.startS, sh.endS);
      const poster = posters?.[idx];
      if (poster) insertPoster(o.db, clipId, shotId, poster.rel, poster.mid);
      if (c.unsent) continue;
      for (const [ci, ch] of chunks(sh.startS, sh.endS, o.chunkS ?? 4).entries()) {
        const seg = { id: insertSegment(o.db, { clipId, shotId, chunkIdx: ci, startS: ch.startS, endS: ch.endS }), shotId, startS: ch.startS, endS: ch.endS };
        segments.push(seg);
        work.push({ seg, decoded });
      }
    }
    out.push({ clipId, name: c.name, file: c.file, durationS: info.durationS, height: info.height, segments });
  }
  // The service works on many tasks at once: a few segments in flight together.
  for (let i = 0; i < work.length; i += 8) {
    const batch = work.slice(i, i + 8);
    const results = await Promise.all(batch.map((w) => embedAndTag(o.client, segmentTensor(w.decoded, w.seg.startS, w.seg.endS), o.tags ?? true)));
    batch.forEach((w, j) => {
      const r = results[j]!;
      putEmbedding(o.db, w.seg.id, r.embedding, o.space);
      if (r.tags) putServiceTags(o.db, w.seg.id, { ...r.tags, raw: r.tagsRaw });
    });
  }
  return out;
}

export interface EmulatedCatalog {
  dir: string;
  emu: EmulatorHandle;
  /** Client settings for the emulator, with its one key. */
  cfg: ServiceConfig;
  db: CatalogDb;
  clips: EmbeddedClip[];
  /** Stops the emulator and removes the folder (close the catalog first). */
  close(): Promise<void>;
}

/**
 * The setup of the search suites: a temp folder, an emulator with one key, client settings for
 * it, and a catalog holding the clips `footage(dir)` makes, embedded and tagged through the
 * emulator (with posters under dir/`thumbs` when given).
 */
export async function emulatedCatalog(o: {
  prefix: string;
  key: string;
  emulator?: Omit<EmulatorOptions, 'keys'>;
  footage: (dir: string) => Promise<FixtureClip[]>;
  thumbs?: string;
}): Promise<EmulatedCatalog> {
  const t = tempDir(o.prefix);
  const emu = await startEmulator({ keys: [o.key], ...o.emulator });
  const cfg: ServiceConfig = { region: 'asia', baseUrls: { asia: emu.url }, apiKey: o.key, authHeader: 'x-api-key', qps: 500, concurrency: 8 };
  const db = openTestCatalog(t.dir);
  const close = async () => {
    await emu.close();
    t.cleanup();
  };
  try {
    const clips = await embedClips({ db, client: new ServiceClient(cfg), space: TEST_SPACE, clips: await o.footage(t.dir), ...(o.thumbs ? { thumbsDir: path.join(t.dir, o.thumbs) } : {}) });
    return { dir: t.dir, emu, cfg, db, clips, close };
  } catch (e) {
    db.close();
    await close();
    throw e;
  }
}

/**
 * The search module over an emulated catalog, as the composition root builds it (index polling
 * off). `close()` disposes the module, closes the catalog and stops the emulated world.
 */
export async function searchOver(
  world: EmulatedCatalog,
  over: Partial<Omit<SearchModuleOptions, 'db' | 'space' | 'serviceConfig' | 'indexDir'>> = {},
): Promise<{ mod: SearchModule; close(): Promise<void> }> {
  const mod = createSearchModule({ db: world.db, indexDir: path.join(world.dir, 'search-index'), space: () => TEST_SPACE, serviceConfig: () => world.cfg, index: { pollMs: 0 }, ...over });
  await mod.start();
  // The reference queries, encoded by the service as the app's query-bank job does it.
  await mod.encodeBank();
  return {
    mod,
    async close() {
      await mod.dispose();
      world.db.close();
      await world.close();
    },
  };
}
