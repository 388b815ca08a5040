/**
 * The edits a query chip makes to the text in the search box. The parser (main,
 * `core/search/query/query-parser.ts`) never reads quoted words as filters, so a chip's phrase put in
 * double quotes is words in this search and every later one of that text.
 */

const OPEN = /["“”„«]/;
const CLOSE = /["“”»]/;
const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Where `phrase` first stands in `query` as whole words outside quotes, ignoring case; -1 if nowhere. */
function findPhrase(query: string, phrase: string): number {
  const q = query.toLowerCase();
  const p = phrase.toLowerCase();
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    if (quoted ? CLOSE.test(q[i]!) : OPEN.test(q[i]!)) {
      quoted = !quoted;
      continue;
    }
    if (!quoted && q.startsWith(p, i) && !wordChar(q[i - 1]) && !wordChar(q[i + p.length])) return i;
  }
  return -1;
}

/** The query with the chip's words in quotes ("wide river" stays words); unchanged if they are no longer in it. */
export function quotePhrase(query: string, phrase: string): string {
  const i = findPhrase(query, phrase);
  return i < 0 ? query : `${query.slice(0, i)}"${query.slice(i, i + phrase.length)}"${query.slice(i + phrase.length)}`;
}

/** The query without the chip's words (its "not" or "-" included), and without the comma they leave. */
export function removePhrase(query: string, phrase: string): string {
  const i = findPhrase(query, phrase);
  if (i < 0) return query;
  return `${query.slice(0, i)} ${query.slice(i + phrase.length)}`
    .replace(/\s*,\s*,/g, ',')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,]+|[\s,]+$/g, '');
}

/**
 * The name of a search's export (its files and the NLE's sequence): the text the editor typed, the
 * words the parser made filters included ("wide static" is all filters and no words), else "results".
 */
export function searchExportTitle(typed: string | null | undefined): string {
  const text = typed?.replace(/\s+/g, ' ').trim();
  return `Search ${text || 'results'}`;
}
