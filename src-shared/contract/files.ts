import { z } from 'zod';
import { method, okSchema, voidSchema } from './define';

const clipTarget = z.object({ clipId: z.number().int().positive() }).strict();

/**
 * Hand-off by hand: the real file to the Finder/Explorer, the default player, or dragged into an
 * NLE. Only the desktop shell can do these; the web transport says why not (`capabilities`).
 */
export const filesMethods = {
  'files.capabilities': method(voidSchema, z.object({ desktop: z.boolean(), why: z.string().nullable() })),
  'files.reveal': method(clipTarget, okSchema),
  'files.open': method(clipTarget, okSchema),
  /** Starts an OS drag of the clips' files (call from the renderer's dragstart). */
  'files.startDrag': method(z.object({ clipIds: z.array(z.number().int().positive()).min(1).max(500) }).strict(), okSchema),
} as const;
