/**
 * Text of the catalog (file names, range names, notes, keywords) as the hand-off files may carry
 * it. A file name may hold a line feed, a note any control character the file system or a paste
 * let in: written as is, a line feed in an EDL comment starts an event line of its own, and a tab
 * in an Avid marker shifts its columns. Every writer passes its fields through one of these.
 */

/** C0 and C1 controls, DEL, and Unicode's line and paragraph separators (JSON and JS read them as breaks). */
// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line: every run of control characters (line breaks and tabs too) becomes one space. */
export function oneLine(s: string): string {
  return s.replace(CONTROLS, ' ').replace(/ {2,}/g, ' ').trim();
}

/** Multi-line text (a note): line breaks kept as "\n", every other control character a space. */
export function textBlock(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => oneLine(line))
    .join('\n')
    .trim();
}

/** Punctuation editors type that has a plain 7-bit spelling. */
const ASCII_PUNCTUATION: Record<string, string> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2026': '...', '\u00b7': '-', '\u2022': '-', '\u00d7': 'x', '\u00a0': ' ', '\u00df': 'ss', '\u00e6': 'ae', '\u00c6': 'AE',
  '\u0153': 'oe', '\u0152': 'OE', '\u00f8': 'o', '\u00d8': 'O', '\u0142': 'l', '\u0141': 'L', '\u0111': 'd', '\u0110': 'D', '\u00fe': 'th', '\u00de': 'TH',
};

/**
 * One line of 7-bit ASCII, for formats that are 7-bit (CMX3600): accents dropped (é -> e, by
 * Unicode decomposition), common punctuation spelled plainly (— -> -, “” -> ""), and each
 * remaining character that has no ASCII spelling (日本) as "?", so the reader still sees that
 * something stood there.
 */
export function asciiLine(s: string): string {
  const decomposed = oneLine(s).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let out = '';
  for (const ch of decomposed) out += ch <= '\u007e' ? ch : (ASCII_PUNCTUATION[ch] ?? '?');
  return out;
}

/** A spreadsheet evaluates a cell that starts with one of these as a formula (OWASP, CSV injection; tab and CR are gone by then). */
const FORMULA_START = /^[=+\-@]/;

/**
 * Text a spreadsheet may open as a cell, neutralised as OWASP's CSV-injection rule says: text
 * that starts with = + - @ gets an apostrophe in front, so Excel, LibreOffice and Sheets show it
 * as text instead of running it (`=HYPERLINK(...)`, `=1+1`). The rule's other two, a leading tab
 * or carriage return, must already be gone (`oneLine`, `textBlock`). Tab-separated marker lists
 * and EDLs are opened in spreadsheets too, so their free text passes here as the CSV's does.
 */
export function formulaSafe(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/**
 * One CSV field (RFC 4180): control characters out (line breaks inside are kept), neutralised by
 * `formulaSafe`, and quoted when it was neutralised or holds a comma, quote or line break, its
 * quotes doubled. Numbers and timecodes never start with those characters.
 */
export function csvField(v: string | number): string {
  if (typeof v === 'number') return String(v);
  const plain = textBlock(v);
  const s = formulaSafe(plain);
  return s !== plain || /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One TSV field: one line with no tab (`oneLine`: line breaks, tabs and other control characters
 * become a space), neutralised by `formulaSafe` (a .tsv opens in spreadsheets too), never quoted.
 */
export function tsvField(v: string): string {
  return formulaSafe(oneLine(v));
}
