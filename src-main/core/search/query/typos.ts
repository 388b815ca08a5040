import { isKnownWord, lemma, TYPO_TARGETS } from './phrase-table';
import { isFunctionWord } from './english';

/**
 * Optimal string alignment distance (Damerau-Levenshtein restricted to edits that do not overlap):
 * insertions, deletions, substitutions and transpositions of two adjacent letters each cost one, so
 * "closup" (a deletion), "arial" (a deletion) and "handhled" (a transposition) are one edit away.
 * Stops early: returns `limit + 1` as soon as the distance must exceed `limit`.
 */
export function osaDistance(a: string, b: string, limit = 1): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The vocabulary word a typed word is a typo of: one edit away from exactly one word of five letters
 * or more ("closup" -> "closeup", "arial" -> "aerial"). A word the vocabulary knows (or whose plural
 * it is), a function word, or a word shorter than five letters is never corrected; neither is one
 * near two vocabulary words (no guess between them).
 */
export function typoOf(word: string): string | undefined {
  if (word.length < 5 || !/^[a-z]+$/.test(word) || isKnownWord(word) || isKnownWord(lemma(word)) || isFunctionWord(word)) return undefined;
  const near = TYPO_TARGETS.filter((t) => osaDistance(word, t) <= 1);
  return near.length === 1 ? near[0] : undefined;
}
