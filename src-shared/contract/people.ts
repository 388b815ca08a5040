import { z } from 'zod';
import { method, okSchema } from './define';
import { safeText } from './safe-strings';

/**
 * People by name (issue 39): faces grouped into people on this machine, named by the editor, and
 * searched with `@Name`. Embeddings never leave the machine; what the editor decided is kept as
 * facts about faces (people/people-facts-store.ts), which is also what a team shares.
 */

/** A person's name as typed: trimmed, 1-80 characters, no control characters (accents and spaces welcome). Longer input is read whole so the editor is told the limit, not a parser's words. */
export const personNameSchema = safeText(10_000)
  .transform((s) => s.normalize('NFC').trim().replace(/\s+/g, ' '))
  .refine((s) => s.length > 0, 'a name cannot be empty')
  .refine((s) => s.length <= 80, 'a name is at most 80 characters')
  .refine((s) => !/^[@"-]/.test(s) && !s.includes('"'), 'a name cannot start with @ or -, nor contain a double quote (search reads @"Ana María" by its quotes)');

const faceRef = z.object({ faceId: z.number().int().positive() }).strict();

/** One face as the People view shows it: a crop and where it is. */
export const personFaceSchema = z.object({
  faceId: z.number().int(),
  clipId: z.number().int(),
  clipName: z.string(),
  /** Decoded frame number of the face's sample (null: the clip counts no frames). */
  frame: z.number().int().nullable(),
  timeS: z.number(),
  quality: z.number(),
  /** `data:image/png;base64,...` of the aligned crop (null: no crop kept for this face). */
  image: z.string().nullable(),
  /** How the face came to its person; null: nobody's yet (a suggestion from the pool). */
  how: z.enum(['confirmed', 'grouped', 'matched']).nullable(),
});
export type PersonFace = z.infer<typeof personFaceSchema>;

export const personSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  /** null: a group the grouping proposes, not named yet. */
  name: z.string().nullable(),
  hidden: z.boolean(),
  faces: z.number().int(),
  clips: z.number().int(),
  /** The best faces (highest quality, confirmed first), for the strip. */
  best: z.array(personFaceSchema),
  /** Faces the matcher thinks are this (named) person but the editor has not confirmed: "Is this Maria?". */
  suggestions: z.number().int(),
});
export type Person = z.infer<typeof personSchema>;

export const peopleMethods = {
  /** Every person and proposed group, named first (by name), then groups by size. */
  'people.list': method(z.object({ hidden: z.boolean().default(false) }).strict(), z.object({ people: z.array(personSchema), recognition: z.boolean() })),
  /** One person's faces, best first, a page at a time (the split view). */
  'people.faces': method(
    z.object({ personId: z.number().int().positive(), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(100) }).strict(),
    z.object({ faces: z.array(personFaceSchema), total: z.number().int() }),
  ),
  /** Faces the matcher proposes for a named person, most likely first. */
  'people.suggestions': method(z.object({ personId: z.number().int().positive(), limit: z.number().int().min(1).max(100).default(24) }).strict(), z.object({ faces: z.array(personFaceSchema) })),
  /** Names a person or group (a name already given to another person is refused: merge them instead). */
  'people.name': method(z.object({ personId: z.number().int().positive(), name: personNameSchema }).strict(), okSchema),
  /** `from` joins `into`; its faces and facts are `into`'s from now on. Merging a person into itself is refused. */
  'people.merge': method(z.object({ from: z.number().int().positive(), into: z.number().int().positive() }).strict(), okSchema),
  /** Faces moved out of a person (they are not this person): into a new group, or into another person. */
  'people.split': method(
    z.object({ personId: z.number().int().positive(), faceIds: z.array(z.number().int().positive()).min(1).max(1000), into: z.number().int().positive().nullable().default(null) }).strict(),
    z.object({ personId: z.number().int() }),
  ),
  /** "Not a person of interest": hidden from the view and from completion; still found by its name. */
  'people.hide': method(z.object({ personId: z.number().int().positive(), hidden: z.boolean() }).strict(), okSchema),
  /** The editor's answer to "Is this <name>?" for one face. */
  'people.confirm': method(faceRef.extend({ personId: z.number().int().positive(), yes: z.boolean() }).strict(), okSchema),
  /** Deletes the person's embeddings and every fact about them; their faces are never grouped again. */
  'people.forget': method(z.object({ personId: z.number().int().positive() }).strict(), okSchema),
  /** Known names for `@` completion, those starting with the prefix first (case and accents folded). */
  'people.names': method(z.object({ prefix: safeText(80).default('') }).strict(), z.object({ names: z.array(z.string()) })),
  /** The named people seen in each clip (cards, list view's People column). */
  'people.inClips': method(z.object({ clipIds: z.array(z.number().int().positive()).max(2000) }).strict(), z.object({ clips: z.record(z.string(), z.array(z.string())) })),
  /** Named faces of a clip's sampled frames, for the viewer's boxes. */
  'people.clipFaces': method(
    z.object({ clipId: z.number().int().positive() }).strict(),
    z.object({ faces: z.array(z.object({ faceId: z.number().int(), timeS: z.number(), frame: z.number().int().nullable(), x: z.number(), y: z.number(), w: z.number(), h: z.number(), name: z.string().nullable() })) }),
  ),
} as const;
