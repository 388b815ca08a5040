import { z } from 'zod';
import { safeText } from './contract/safe-strings';

/**
 * Something the renderer may display: a cached thumbnail/sprite, a catalogued clip, its viewing
 * proxy, or the preview stream of one window of it (by its first frame and the frame after its
 * last: stream-window.ts) while its proxy is not made yet, for playback.
 */
export const mediaRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('thumb'), path: safeText(1024).min(1) }),
  z.object({ kind: z.literal('clip'), clipId: z.number().int().positive() }),
  z.object({ kind: z.literal('proxy'), clipId: z.number().int().positive() }),
  z.object({ kind: z.literal('stream'), clipId: z.number().int().positive(), from: z.number().int().nonnegative(), to: z.number().int().positive() }),
]);
export type MediaRef = z.infer<typeof mediaRefSchema>;

/** The URL path both transports understand (web: under http://host/, Electron: rs-media://). */
export function mediaPath(ref: MediaRef): string {
  if (ref.kind === 'thumb') return `thumb/${ref.path.split('/').map(encodeURIComponent).join('/')}`;
  return ref.kind === 'stream' ? `stream/${ref.clipId}/${ref.from}/${ref.to}` : `${ref.kind}/${ref.clipId}`;
}

const wholeNumber = (text: string, min: number): number | null => {
  const n = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(n) && n >= min ? n : null;
};

export function parseMediaPath(p: string): MediaRef | null {
  const m = /^\/?(thumb|clip|proxy|stream)\/(.+)$/.exec(p);
  if (!m) return null;
  if (m[1] === 'clip' || m[1] === 'proxy') {
    const id = wholeNumber(m[2]!, 1);
    return id !== null ? { kind: m[1], clipId: id } : null;
  }
  if (m[1] === 'stream') {
    const [idText, fromText, toText, ...rest] = m[2]!.split('/');
    const id = wholeNumber(idText ?? '', 1);
    const from = wholeNumber(fromText ?? '', 0);
    const to = wholeNumber(toText ?? '', 1);
    return id !== null && from !== null && to !== null && to > from && rest.length === 0 ? { kind: 'stream', clipId: id, from, to } : null;
  }
  try {
    const parsed = mediaRefSchema.safeParse({ kind: 'thumb', path: m[2]!.split('/').map(decodeURIComponent).join('/') });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
