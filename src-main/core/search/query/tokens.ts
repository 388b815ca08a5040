/**
 * A query split into words, punctuation and quoted passages, each with its place in the query (so a
 * chip can name the words it came from as typed) and what the grammar needs to know of its spelling.
 */
export interface Token {
  kind: 'word' | 'boundary' | 'quoted';
  /** As typed; for a quoted passage, the text inside the quotes. */
  raw: string;
  /** Lower case, accents and apostrophes dropped ("Bird's" -> "birds"); '' for punctuation. */
  norm: string;
  /** Offsets in the query: [start, end). A "-" that negates the word is before `start`. */
  start: number;
  end: number;
  /** Typed as "-word": an exclusion. */
  minus: boolean;
  /** Joined to the word before by a hyphen ("close-up", "bird's-eye"). */
  hyphenBefore: boolean;
  /** Two or more letters, all capitals ("CU", "MS"). */
  caps: boolean;
  /** A capital, then lower case ("Office"): a name when it follows an abbreviation. */
  capitalised: boolean;
}

const QUOTE_OPEN = /["“”„«]/;
const QUOTE_CLOSE = /["“”»]/;
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}]|['’](?=[\p{L}\p{N}]))*/uy;

function normalWord(w: string): string {
  return w
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '');
}

/**
 * Words are runs of letters and digits (with apostrophes inside); a hyphen between two words joins
 * them ("close-up"), a hyphen before a word negates it ("-handheld"); quotes enclose a passage that
 * is never read as filters (an unclosed quote runs to the end); any other mark is a boundary.
 */
export function tokenize(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (t: Omit<Token, 'norm' | 'caps' | 'capitalised' | 'minus' | 'hyphenBefore'> & Partial<Token>) =>
    out.push({
      norm: t.kind === 'boundary' ? '' : normalWord(t.raw),
      caps: t.kind === 'word' && /^\p{Lu}{2,}$/u.test(t.raw.replace(/[^\p{L}]/gu, '')),
      capitalised: t.kind === 'word' && /^\p{Lu}\p{Ll}+$/u.test(t.raw),
      minus: false,
      hyphenBefore: false,
      ...t,
    });
  while (i < query.length) {
    const ch = query[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (QUOTE_OPEN.test(ch)) {
      let j = i + 1;
      while (j < query.length && !QUOTE_CLOSE.test(query[j]!)) j++;
      push({ kind: 'quoted', raw: query.slice(i + 1, j).trim(), start: i, end: Math.min(j + 1, query.length) });
      i = j + 1;
      continue;
    }
    WORD.lastIndex = i;
    const m = WORD.exec(query);
    if (m) {
      const before = query[i - 1];
      const prevWord = out[out.length - 1];
      const hyphenBefore = before === '-' && prevWord?.kind === 'word' && prevWord.end === i - 1;
      const minus = before === '-' && !hyphenBefore && (i < 2 || /\s/.test(query[i - 2]!));
      push({ kind: 'word', raw: m[0], start: i, end: i + m[0].length, minus, hyphenBefore });
      i += m[0].length;
      continue;
    }
    // A hyphen is read with the word after it; other marks end a phrase.
    if (ch !== '-') push({ kind: 'boundary', raw: ch, start: i, end: i + 1 });
    i++;
  }
  return out;
}
