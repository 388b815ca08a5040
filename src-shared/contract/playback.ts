import { z } from 'zod';
import { method } from './define';
import { volumeSchema } from './library';
import { proxyPolicySchema } from './settings';

/**
 * What the viewer plays for a clip: its own file when the player decodes it and it is reachable,
 * else its viewing proxy (made by the clip's analysis decode), else, while that proxy is still to
 * be made and the original is there, a preview stream of the window being watched (made on
 * demand: media ref `stream`), else nothing, with the reason.
 */
export const playbackSchema = z.object({
  source: z.enum(['original', 'proxy', 'stream', 'none']),
  /** The original's drive is unplugged or its file is not where it was catalogued. */
  offline: z.boolean(),
  /** Why the original is not what plays (its codec, its drive), or why nothing plays; null when the original plays. */
  why: z.string().nullable(),
  /** ready: on disk; pending: wanted, made by the clip's indexing; none: not wanted (Settings) or not possible. */
  proxy: z.enum(['ready', 'pending', 'none']),
  /** Frames in the proxy (equal to the original's), null without one. */
  proxyFrames: z.number().int().nullable(),
});
export type Playback = z.infer<typeof playbackSchema>;

/** The viewer's answer for one clip: its playback, and for a team clip listed offline the share its file is on. */
export const clipPlaybackSchema = playbackSchema.extend({
  /** The team's share the file is on, for a team clip not on this workstation (an offline entry): importing a copy of it from any folder relinks it. */
  teamShare: z.string().nullable(),
});
export type ClipPlayback = z.infer<typeof clipPlaybackSchema>;

export const proxySpaceSchema = z.object({
  count: z.number().int(),
  bytes: z.number(),
  folder: z.string(),
  /** Free space on the folder's disk; below the room a proxy needs, no new proxy is written. */
  freeBytes: z.number(),
  /** Why new proxies are not being written now (the disk), null when they are. */
  stopped: z.string().nullable(),
  /** The drives whose clips may have proxies (not clips added by URL, not a team's shares seen from here), each with its own choice. */
  volumes: z.array(volumeSchema),
});
export type ProxySpace = z.infer<typeof proxySpaceSchema>;

export const playbackMethods = {
  'playback.get': method(z.object({ clipId: z.number().int().positive() }).strict(), clipPlaybackSchema),
  /** What the Library's cards say of each clip's playback (from the catalog, no file read): clips not in the catalog are left out. */
  'playback.sources': method(
    z.object({ clipIds: z.array(z.number().int().positive()).max(500) }).strict(),
    z.object({ sources: z.array(playbackSchema.pick({ source: true, offline: true, proxy: true }).extend({ clipId: z.number().int() })) }),
  ),
  /**
   * A conformed (VFR) clip's presentation times, s, in order: what the viewer maps grid positions
   * onto (src-shared/picture-grid.ts), the same in the original and its proxy. Null for a clip
   * counted at its own rate (its frame numbers are its pictures) or whose times cannot be read now.
   */
  'playback.pictureTimes': method(z.object({ clipId: z.number().int().positive() }).strict(), z.object({ times: z.array(z.number().finite()).max(5_000_000).nullable() }).strict()),
  /**
   * The viewer plays the preview-stream window `from`-`to` of the clip going `toward` (on: play or
   * standing; back: reverse play): main makes the window it goes into next ahead, the one after it
   * or the one before it (proxies/range-streams.ts).
   */
  'playback.streamToward': method(
    z.object({ clipId: z.number().int().positive(), from: z.number().int().nonnegative(), to: z.number().int().positive(), toward: z.enum(['on', 'back']) }).strict(),
    z.object({}).strict(),
  ),
  /** The viewer closed or plays another source: the clip's preview stream is stopped and its file removed. */
  'playback.stopStream': method(z.object({ clipId: z.number().int().positive() }).strict(), z.object({}).strict()),
  /** The viewing proxies on disk: how many, their size, and where (Settings). */
  'playback.proxySpace': method(z.object({}).strict(), proxySpaceSchema),
  /** A volume's own choice of viewing proxies (null: as Settings says for all); the volumes as they are now. */
  'playback.volumeProxies': method(z.object({ volumeId: z.number().int().positive(), policy: proxyPolicySchema.nullable() }).strict(), proxySpaceSchema),
} as const;
