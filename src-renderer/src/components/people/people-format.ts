import { personNameSchema, type Person, type PersonFace } from '../../../../src-shared/contract/people';

/** Longest name the contract takes (personNameSchema's bound), said in the error. */
const NAME_MAX = 80;

/**
 * What is wrong with a typed name before it is sent, in the contract's words (empty, quotes, @ or -
 * at the start); a name too long says how long it is, which the schema's generic words do not.
 * Null: the name may be sent (a name someone else has is refused by main, with its words).
 */
export function nameProblem(draft: string): string | null {
  const r = personNameSchema.safeParse(draft);
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  // The contract says the limit; the field can say by how much, as the editor typed it.
  const typed = draft.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (typed.length > NAME_MAX) return `A name can be at most ${NAME_MAX} characters; this one has ${typed.length.toLocaleString('en-US')}.`;
  return issue.message.charAt(0).toUpperCase() + issue.message.slice(1) + '.';
}

/** How an unnamed group is called where it must be told apart from others (the merge picker, Move to…). */
export function personLabel(p: Pick<Person, 'name' | 'faces' | 'clips'>, unnamedIndex: number): string {
  return p.name ?? `Unnamed group ${unnamedIndex} (${p.faces} face${p.faces === 1 ? '' : 's'})`;
}

/** "12 faces · 3 clips". */
export const countsLine = (p: Pick<Person, 'faces' | 'clips'>): string => `${p.faces} face${p.faces === 1 ? '' : 's'} · ${p.clips} clip${p.clips === 1 ? '' : 's'}`;

/** Where a face is, as an editor reads it: "A001.mov 0:12.5". */
export function faceWhere(f: Pick<PersonFace, 'clipName' | 'timeS'>): string {
  const m = Math.floor(f.timeS / 60);
  const s = (f.timeS - m * 60).toFixed(1).padStart(4, '0');
  return `${f.clipName} ${m}:${s}`;
}
