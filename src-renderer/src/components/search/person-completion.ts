/**
 * `@` completion in the search box (issue 39): which `@name` the caret is in, and the text once a
 * known name is chosen. The reading of a term is the parser's (main,
 * `core/search/query/person-terms.ts`): an `@` starts a term at the start of the box, after a space
 * or a "-" that starts a word; a name with a space is quoted.
 */

const QUOTES = /["“”„«»]/;
/** What an unquoted name may hold: the parser's unquoted name (letters, digits, and - ' ’ . inside). */
const BARE_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N}]|[-'’.](?=[\p{L}\p{N}]))*$/u;

export interface AtTerm {
  /** Where the term's `@` is. */
  at: number;
  /** Where the term ends after the caret (the rest of the word being typed over). */
  end: number;
  /** What is typed after `@` (and its quote) up to the caret. */
  prefix: string;
}

/** The `@` term the caret is in, or null (no `@` term, or the caret is past a finished one). */
export function atTermAt(text: string, caret: number): AtTerm | null {
  for (let i = caret - 1; i >= 0; i--) {
    const ch = text[i]!;
    if (ch !== '@') continue;
    const before = text[i - 1];
    const starts = before === undefined || /\s/.test(before) || (before === '-' && (i < 2 || /\s/.test(text[i - 2]!)));
    if (!starts) return null;
    const typed = text.slice(i + 1, caret);
    const quoted = QUOTES.test(typed[0] ?? '');
    // Past the closing quote, or (unquoted) past a space: the term is finished.
    if (quoted ? QUOTES.test(typed.slice(1)) : /\s/.test(typed)) return null;
    let end = caret;
    if (!quoted) while (end < text.length && !/\s/.test(text[end]!)) end++;
    else {
      while (end < text.length && !QUOTES.test(text[end]!)) end++;
      if (end < text.length) end++;
    }
    return { at: i, end, prefix: quoted ? typed.slice(1) : typed };
  }
  return null;
}

/** How a name is written after `@`: bare when the parser reads it whole, else in double quotes. */
export function atName(name: string): string {
  return BARE_NAME.test(name) ? `@${name}` : `@"${name}"`;
}

/** The text with the term replaced by the chosen name (and a space after it), and where the caret goes. */
export function acceptName(text: string, term: AtTerm, name: string): { text: string; caret: number } {
  const written = atName(name);
  const rest = text.slice(term.end);
  const glue = rest.startsWith(' ') ? '' : ' ';
  return { text: `${text.slice(0, term.at)}${written}${glue}${rest}`, caret: term.at + written.length + 1 };
}
