import { nameKey } from '../../people/person-names';

/**
 * `@Name` terms of a query (issue 39): `@Maria`, `@"Ana María"` (a name with spaces, in any of the
 * quotes the tokenizer knows), `-@Tom` (nobody called Tom in the moment). A term starts a word: an
 * `@` inside one ("a@b.c") is not a person, nor is one inside a quoted passage ("meet @Maria" is
 * words for the service, as quotes always are).
 */
export interface PersonTerm {
  /** As typed, whitespace collapsed, NFC: what the presence read model looks up. */
  name: string;
  negated: boolean;
  /** Offsets in the query of the whole term, its "-" and quotes included: [start, end). */
  start: number;
  end: number;
}

export interface PersonTerms {
  terms: PersonTerm[];
  /** The query with every term (and every bare `@` or `@""`) blanked out, offsets kept, for the word parser. */
  rest: string;
}

const QUOTE_OPEN = /["“”„«]/;
const QUOTE_CLOSE = /["“”»]/;
/** An unquoted name: letters and digits, with a hyphen, apostrophe or dot inside (Jean-Luc, O'Brien, J.Lo). */
const NAME = /[\p{L}\p{N}](?:[\p{L}\p{N}]|[-'’.](?=[\p{L}\p{N}]))*/uy;

/** Where an `@` can start a term: the query's start, after a space or an opening bracket, or after a "-" that starts a word. */
function startsTerm(query: string, at: number): { start: number; negated: boolean } | null {
  const before = query[at - 1];
  if (before === undefined || /[\s([,;]/.test(before)) return { start: at, negated: false };
  if (before === '-' && (at < 2 || /[\s([,;]/.test(query[at - 2]!))) return { start: at - 1, negated: true };
  return null;
}

export function personTerms(query: string): PersonTerms {
  const terms: PersonTerm[] = [];
  const blanks: Array<[number, number]> = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (QUOTE_OPEN.test(ch)) {
      // A quoted passage is skipped whole, as the tokenizer reads it (an unclosed quote runs to the end).
      let j = i + 1;
      while (j < query.length && !QUOTE_CLOSE.test(query[j]!)) j++;
      i = j + 1;
      continue;
    }
    const from = ch === '@' ? startsTerm(query, i) : null;
    if (!from) {
      i++;
      continue;
    }
    let raw: string;
    let end: number;
    if (QUOTE_OPEN.test(query[i + 1] ?? '')) {
      let j = i + 2;
      while (j < query.length && !QUOTE_CLOSE.test(query[j]!)) j++;
      raw = query.slice(i + 2, j);
      end = Math.min(j + 1, query.length);
    } else {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(query);
      raw = m?.[0] ?? '';
      end = i + 1 + raw.length;
    }
    const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
    blanks.push([from.start, end]);
    // A bare `@` or `@""` names nobody: it is dropped, not sent to the service as words.
    if (name !== '') terms.push({ name, negated: from.negated, start: from.start, end });
    i = end;
  }
  let rest = query;
  for (const [s, e] of blanks) rest = rest.slice(0, s) + ' '.repeat(e - s) + rest.slice(e);
  return { terms, rest };
}

/** The people a query names: who must be in the moment, who must not; each name once (as nameKey compares them). */
export function peopleOf(terms: readonly PersonTerm[]): { include: string[]; exclude: string[] } {
  const include = new Map<string, string>();
  const exclude = new Map<string, string>();
  for (const t of terms) {
    const target = t.negated ? exclude : include;
    if (!target.has(nameKey(t.name))) target.set(nameKey(t.name), t.name);
  }
  return { include: [...include.values()], exclude: [...exclude.values()] };
}
