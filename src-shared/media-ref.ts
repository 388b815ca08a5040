import { z } from 'zod';
import { safeText } from './contract/safe-strings';

/** Something the renderer may display: a cached thumbnail/sprite, a catalogued clip, or its viewing proxy, for playback. */
export const mediaRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('thumb'), path: safeText(1024).min(1) }),
  z.object({ kind: z.literal('clip'), clipId: z.number().int().positive() }),
  z.object({ kind: z.literal('proxy'), clipId: z.number().int().positive() }),
]);
export type MediaRef = z.infer<typeof mediaRefSchema>;

/** The URL path both transports understand (web: under http://host/, Electron: rs-media://). */
export function mediaPath(ref: MediaRef): string {
  return ref.kind === 'thumb' ? `thumb/${ref.path.split('/').map(encodeURIComponent).join('/')}` : `${ref.kind}/${ref.clipId}`;
}

export function parseMediaPath(p: string): MediaRef | null {
  const m = /^\/?(thumb|clip|proxy)\/(.+)$/.exec(p);
  if (!m) return null;
  if (m[1] === 'clip' || m[1] === 'proxy') {
    const id = Number(m[2]);
    return /^\d+$/.test(m[2]!) && Number.isSafeInteger(id) && id > 0 ? { kind: m[1], clipId: id } : null;
  }
  try {
    const parsed = mediaRefSchema.safeParse({ kind: 'thumb', path: m[2]!.split('/').map(decodeURIComponent).join('/') });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
