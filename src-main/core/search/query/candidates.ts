import { ANYONE, countOf, CUES, DETERMINERS, HUMAN_NOUNS, LEADING_CUES, MOVEMENT_NAMES, NEGATORS } from './english';
import { lemma, meaningsOf, type Meaning } from './phrase-table';
import type { Token } from './tokens';
import { typoOf } from './typos';

/**
 * A run of words that names a vocabulary value somewhere in the query: a candidate for a chip, which
 * the licensing rules (`licensing.ts`) accept or leave as words from its neighbours.
 */
export interface Candidate {
  /** Tokens of the phrase, cue words included: [first, end). */
  first: number;
  end: number;
  /** The words that name the value, without cue words: [coreFirst, coreEnd). */
  coreFirst: number;
  coreEnd: number;
  /** What the words may name, most exact first. */
  meanings: Meaning[];
  /** A word was read as a typo of a vocabulary word. */
  typo: boolean;
  /** The vocabulary words the typos were read as. */
  typoOf: string[];
  /** A cue word ("shot", "angle", "camera"...) is part of the phrase: "wide shot", "camera pan". */
  cue: boolean;
  /** Two words or more besides cues ("pan left", "looking down"): a camera phrase in itself. */
  complete: boolean;
  /** Its first word is inflected ("pans", "looking", "pulls"): after a noun, that noun's action. */
  inflected: boolean;
}

const MAX_WORDS = 5;
/** Words the vocabulary's compact form drops inside a movement ("pan to the left"); never the ends of a phrase. */
const JOINERS = new Set(['a', 'an', 'the', 'to']);

/** Candidates left to right, longest first at each word; a word belongs to one candidate at most. */
export function findCandidates(tokens: readonly Token[]): Candidate[] {
  const out: Candidate[] = [];
  // Each word's singular, and the vocabulary word it may be a typo of, once (a word is in up to five runs).
  const lemmas = tokens.map((t) => lemma(t.norm));
  const words: Words = { norms: tokens.map((t) => t.norm), lemmas, fixes: lemmas.map((w) => typoOf(w) ?? w) };
  let i = 0;
  while (i < tokens.length) {
    const c = tokens[i]!.kind === 'word' ? (phraseAt(tokens, words, i, out[out.length - 1]?.end ?? 0) ?? countAt(tokens, i) ?? nobodyAt(tokens, i)) : undefined;
    if (c) {
      out.push(c);
      i = c.end;
    } else i++;
  }
  return out;
}

/** How many words from `i` can form one phrase: words only, a "-" only on the first. */
function runLength(tokens: readonly Token[], i: number): number {
  let n = 0;
  while (i + n < tokens.length && n < MAX_WORDS && tokens[i + n]!.kind === 'word' && (n === 0 || !tokens[i + n]!.minus)) n++;
  return n;
}

interface Words {
  norms: string[];
  lemmas: string[];
  /** The vocabulary word each word is a typo of, or the word. */
  fixes: string[];
}

function phraseAt(tokens: readonly Token[], { norms, lemmas, fixes }: Words, i: number, free: number): Candidate | undefined {
  for (let n = runLength(tokens, i); n >= 1; n--) {
    const span = norms.slice(i, i + n);
    if (CUES.has(span[0]!) || JOINERS.has(span[0]!) || JOINERS.has(span[n - 1]!)) continue;
    const typed = lemmas.slice(i, i + n);
    let meanings = usable(typed, meaningsOf(typed));
    let fixed: string[] = [];
    if (meanings.length === 0) {
      const corrected = fixes.slice(i, i + n);
      fixed = corrected.filter((w, k) => w !== typed[k]);
      if (fixed.length > 0) meanings = usable(corrected, meaningsOf(corrected));
    }
    if (meanings.length === 0) continue;
    let first = i;
    let end = i + n;
    let cue = span.some((w) => CUES.has(w));
    while (end < tokens.length && tokens[end]!.kind === 'word' && !tokens[end]!.minus && CUES.has(norms[end]!)) {
      end++;
      cue = true;
    }
    if (first - 1 >= free && tokens[first - 1]?.kind === 'word' && LEADING_CUES.has(norms[first - 1]!) && !tokens[first]!.minus) {
      first--;
      cue = true;
    }
    const words = span.filter((w) => !CUES.has(w) && !JOINERS.has(w));
    return { first, end, coreFirst: i, coreEnd: i + n, meanings, typo: fixed.length > 0, typoOf: fixed, cue, complete: words.length >= 2, inflected: /(?:ing|ed|[^s]s)$/.test(span[0]!) };
  }
  return undefined;
}

/**
 * A phrase that starts with "no" names a value only as a whole ("no people", "nobody", "no one"),
 * or as the field's own name negated: "no camera movement" is what the vocabulary calls static.
 * Otherwise the "no" is a negation, read later, of the phrase after it.
 */
function usable(words: readonly string[], meanings: Meaning[]): Meaning[] {
  return meanings.filter((m) =>
    m.use === 'negatedField' ? words.some((w) => MOVEMENT_NAMES.has(w)) : !NEGATORS.has(words[0]!) || (m.use === 'term' && m.field === 'people'),
  );
}

/** A count before a noun for people: "two men", "3 people", "several women" (0, 1, 2, or 3 and more: a group). */
function countAt(tokens: readonly Token[], i: number): Candidate | undefined {
  const n = countOf(tokens[i]!.norm);
  const noun = tokens[i + 1];
  if (n === undefined || noun?.kind !== 'word' || noun.minus || !HUMAN_NOUNS.has(noun.norm)) return undefined;
  const value = n === 0 ? 'no_people' : n === 1 ? 'one_person' : n === 2 ? 'two_people' : 'group';
  return { first: i, end: i + 2, coreFirst: i, coreEnd: i + 2, meanings: [{ field: 'people', value, use: 'term' }], typo: false, typoOf: [], cue: false, complete: true, inflected: false };
}

/** "no people", "without any people", "not anyone": the value no people (an inclusion: its label says "No people"). */
function nobodyAt(tokens: readonly Token[], i: number): Candidate | undefined {
  if (!NEGATORS.has(tokens[i]!.norm)) return undefined;
  let j = i + 1;
  while (tokens[j]?.kind === 'word' && DETERMINERS.has(tokens[j]!.norm)) j++;
  const t = tokens[j];
  if (t?.kind !== 'word' || t.minus || !ANYONE.has(t.norm)) return undefined;
  return { first: i, end: j + 1, coreFirst: i, coreEnd: j + 1, meanings: [{ field: 'people', value: 'no_people', use: 'term' }], typo: false, typoOf: [], cue: false, complete: true, inflected: false };
}
