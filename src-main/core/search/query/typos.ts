import { isKnownWord, lemma, TYPO_TARGETS } from './phrase-table';
import { isFunctionWord } from './english';

/**
 * Whether two words are at most one edit apart in the optimal string alignment distance
 * (Damerau-Levenshtein without overlapping edits): one insertion, deletion, substitution, or swap of
 * two neighbouring letters. "closup" (a deletion), "arial" (a deletion) and "handhled" (a swap) are
 * one edit from their vocabulary words. Linear: this runs for every unknown word against every
 * vocabulary word of five letters or more.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    // One substitution, or one swap of neighbours, then the rest equal.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One letter more in the longer word.
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/**
 * The vocabulary word a typed word is a typo of: one edit away from exactly one word of five letters
 * or more ("closup" -> "closeup", "arial" -> "aerial"). A word the vocabulary knows (or whose plural
 * it is), a function word, or a word shorter than five letters is never corrected; neither is one
 * near two vocabulary words (no guess between them).
 */
export function typoOf(word: string): string | undefined {
  if (word.length < 5 || !/^[a-z]+$/.test(word) || isKnownWord(word) || isKnownWord(lemma(word)) || isFunctionWord(word)) return undefined;
  const near = TYPO_TARGETS.filter((t) => withinOneEdit(word, t));
  return near.length === 1 ? near[0] : undefined;
}
