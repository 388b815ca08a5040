import type { QueryUse } from '../../tags/tag-vocabulary';
import type { Candidate } from './candidates';
import { BARE_DIRECTIONS, CARRIER_PREPOSITIONS, CONJUNCTIONS, countOf, DETERMINERS, DIRECTIONS, HUMAN_NOUNS, isFunctionWord, MANNERS, NEGATORS } from './english';
import type { Meaning } from './phrase-table';
import type { Token } from './tokens';

/** A candidate read as a camera or people word: the meaning taken and the tokens it covers (grown by "from a", "of people", a bare direction). */
export interface Licensed {
  meaning: Meaning;
  first: number;
  end: number;
}

/** What a rule sees of a candidate and the words around it. */
interface Context {
  c: Candidate;
  tokens: readonly Token[];
  /** The normal form of the word at t ('' for punctuation, quotes or past either end). */
  word(t: number): string;
  /** A word that is neither a camera word nor a function word: a noun an adjective may modify, a subject. */
  content(t: number): boolean;
  /** A cue word is part of the phrase, or of the list it ends ("drone or crane shots"). */
  cue: boolean;
  /** The query holds camera and function words only ("pans", "wide static", "-drone"). */
  allCamera: boolean;
}

type Span = Pick<Licensed, 'first' | 'end'>;

/** The rule of each `QueryUse` (`tag-vocabulary.ts` describes them): the tokens taken, or null when the words are used otherwise. */
const RULES: Readonly<Record<QueryUse | 'term', (x: Context) => Span | null>> = {
  term: ({ c }) => c,
  cued: ({ c, cue }) => (cue ? c : null),
  negatedField: ({ c }) => c,
  // "wide shot", "wide, static", "a wide of the stadium"; not "wide river", "medium rare", "static noise".
  modifier: ({ c, cue, content }) => (cue || !content(c.end) ? c : null),
  abbreviation: ({ c, tokens, content }) => {
    const tok = tokens[c.coreFirst]!;
    // In capitals wherever it stands, unless a Capitalised name follows ("MS Office", "LA Lakers");
    // in lower case only standing apart from other words: "ms of a chef", not "ms office", "typing ls".
    const ok = tok.caps ? !(tokens[c.end]?.capitalised && content(c.end)) : !content(c.first - 1) && !content(c.end);
    return ok ? c : null;
  },
  label: ({ c, tokens, cue }) => (tokens[c.coreFirst]!.caps && cue ? c : null),
  motion: ({ c, tokens, word, content, cue, allCamera }) => {
    const prev = word(c.first - 1);
    const next = word(c.end);
    // "man looking down", "man pulls out a gun": the action of the noun before it.
    if (c.inflected && content(c.first - 1) && !cue) return null;
    let before = c.first - 1;
    while (DETERMINERS.has(word(before))) before--;
    const negated = tokens[c.coreFirst]!.minus || NEGATORS.has(word(before));
    if (!(cue || c.complete || DIRECTIONS.has(next) || MANNERS.has(prev) || negated || allCamera)) return null;
    // "pan up": the direction goes with the chip; "pan across the city" keeps its preposition.
    return !c.complete && BARE_DIRECTIONS.has(next) ? { first: c.first, end: c.end + 1 } : c;
  },
  device: ({ c, tokens, word, cue, allCamera }) => {
    // "from a drone", "on a tripod": what carries the camera, those words with it.
    let p = c.first - 1;
    while (DETERMINERS.has(word(p))) p--;
    // "no drone": what an editor leaves out is the carrier's footage.
    if (cue || tokens[c.coreFirst]!.minus || NEGATORS.has(word(p))) return c;
    if (CARRIER_PREPOSITIONS.has(word(p))) return { first: p, end: c.end };
    return allCamera ? c : null;
  },
  collective: ({ c, word }) => {
    // "a couple of cars", "group of birds": a quantity; "group of people": the value, "of people" with it.
    if (word(c.end) !== 'of') return c;
    let j = c.end + 1;
    while (DETERMINERS.has(word(j))) j++;
    return HUMAN_NOUNS.has(word(j)) ? { first: c.first, end: j + 1 } : null;
  },
};

/**
 * Decides, from the words around each candidate, whether it is used as a camera or people word, and
 * which of its meanings (the first one its rule accepts). Read as an editor would: "wide" before a
 * noun describes the noun ("wide river"), a movement verb after its subject is the subject's action
 * ("man looking down"), a camera carrier with no camera word near it is the thing itself ("a drone
 * flying"). null where the words stay words.
 */
export function licence(tokens: readonly Token[], candidates: readonly Candidate[]): (Licensed | null)[] {
  const owner = new Array<number>(tokens.length).fill(-1);
  candidates.forEach((c, k) => {
    for (let t = c.first; t < c.end; t++) owner[t] = k;
  });
  const word = (t: number) => (tokens[t]?.kind === 'word' ? tokens[t]!.norm : '');
  const content = (t: number): boolean => {
    const tok = tokens[t];
    if (!tok || tok.kind === 'boundary') return false;
    if (tok.kind === 'quoted') return true;
    // A typo is a word as typed until it is read as a camera word.
    if (owner[t]! >= 0) return candidates[owner[t]!]!.typo;
    return !isFunctionWord(tok.norm) && countOf(tok.norm) === undefined;
  };
  const allCamera = !tokens.some((_, t) => content(t));

  // A cue after a list reaches every item of it: "drone or crane shots", "close or wide shots".
  const cued = candidates.map((c) => c.cue);
  for (let k = candidates.length - 2; k >= 0; k--) {
    const [c, d] = [candidates[k]!, candidates[k + 1]!];
    const between = tokens.slice(c.end, d.first);
    const list = between.length > 0 && between.every((t) => (t.kind === 'word' && CONJUNCTIONS.has(t.norm)) || t.raw === ',');
    if (!cued[k] && cued[k + 1] && list && c.meanings.some((m) => d.meanings.some((n) => n.field === m.field))) cued[k] = true;
  }

  return candidates.map((c, k) => {
    const x: Context = { c, tokens, word, content, cue: cued[k]!, allCamera };
    for (const meaning of c.meanings) {
      // A typo has English words one edit away ("wanted" from "canted"): read without a cue word only
      // as jargon of seven letters or more ("closup", "handhled"), otherwise beside one ("arial shot").
      const span = c.typo ? (x.cue || (meaning.use === 'term' && c.typoOf.every((w) => w.length >= 7)) ? c : null) : RULES[meaning.use](x);
      if (span) return { meaning, first: span.first, end: span.end };
    }
    return null;
  });
}
