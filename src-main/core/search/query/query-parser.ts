import { FACET_FIELDS, type QueryChip, type SearchFilters, type TagSelection } from '../../../../src-shared/contract/search';
import { nameKey } from '../../people/person-names';
import { tagLabel } from '../../tags/tag-vocabulary';
import { findCandidates } from './candidates';
import { DETERMINERS, CONJUNCTIONS, NEGATION_CARRIERS, NEGATORS } from './english';
import { licence, type Licensed } from './licensing';
import { peopleOf, personTerms, type PersonTerm } from './person-terms';
import { tokenize, type Token } from './tokens';
import { PEOPLE_LABELS, type PeopleValue } from './tag-resolution-store';

/**
 * Camera, framing, angle and people words in a text query become facet filters; only the rest of
 * the text goes to encode_text (a text model reads "close-up" as a picture of something close, not
 * as a framing). The words are those of the one tag vocabulary and the people values
 * (`query/phrase-table.ts`), found with their plurals, verb forms and one-edit typos
 * (`query/candidates.ts`), and taken as filters only where the words around them use them so
 * (`query/licensing.ts`: "wide shot" but not "wide river", "pan across" but not "frying pan").
 * "not", "no", "without" or a leading "-" make the phrase after them an exclusion, carried over
 * "or" ("not handheld or shaky"). Quoted words are never read as filters, and go to the service
 * without their quotes: that is how a chip is turned back into words. docs/notes-search.md, "Query
 * understanding". `@Name` terms (query/person-terms.ts) are read first: they name people, not words.
 */

export interface ParsedQuery {
  /** What goes to encode_text: the query without the phrases taken as filters (may be empty). */
  text: string;
  include: TagSelection;
  exclude: TagSelection;
  chips: QueryChip[];
  /** The people `@Name` terms name (as typed): all of `include` in the moment, none of `exclude`. */
  people: { include: string[]; exclude: string[] };
}

interface Found extends Licensed {
  negated: boolean;
  /** The token the chip's phrase starts at: a negation before it, or its own first word. */
  from: number;
  /** Chips joined by one negation ("not handheld or static") share a group. */
  group: number;
}

export function parseQuery(query: string): ParsedQuery {
  // The words around `@Name` terms parse as if the terms were not there: offsets are kept, so a chip's phrase is still the query's.
  const { terms, rest } = personTerms(query);
  const tokens = tokenize(rest);
  const taken = new Array<boolean>(tokens.length).fill(false);
  const isWord = (t: number, set: ReadonlySet<string>) => tokens[t]?.kind === 'word' && !taken[t] && set.has(tokens[t]!.norm);
  const found: Found[] = [];
  for (const l of licence(tokens, findCandidates(tokens))) {
    if (!l) continue;
    for (let t = l.first; t < l.end; t++) taken[t] = true;
    const last = found[found.length - 1];
    let from = l.first;
    let negated = tokens[l.first]!.minus;
    let group = found.length;
    if (!negated) {
      let t = l.first - 1;
      while (isWord(t, DETERMINERS)) t--;
      if (isWord(t, NEGATORS)) {
        negated = true;
        from = t;
      } else if (last?.negated && last.end < l.first && tokens.slice(last.end, l.first).every((x, k) => isWord(last.end + k, NEGATION_CARRIERS) && x.kind === 'word')) {
        negated = true;
        group = last.group;
      }
    }
    for (let t = from; t < l.first; t++) taken[t] = true;
    found.push({ ...l, negated, from, group });
  }
  // Words that only served the chips: an article before one ("a close-up"), "and"/"or" between two.
  found.forEach((f, k) => {
    if (isWord(f.from - 1, DETERMINERS)) taken[f.from - 1] = true;
    const next = found[k + 1];
    if (next && tokens.slice(f.end, next.from).every((x) => x.kind === 'boundary' || CONJUNCTIONS.has(x.norm))) for (let t = f.end; t < next.from; t++) taken[t] = true;
  });
  const facets = chipsOf(query, tokens, found);
  return { text: leftoverText(tokens, taken), ...facets, chips: [...personChips(query, terms), ...facets.chips], people: peopleOf(terms) };
}

/** One chip per person and negation, who first (in the order typed), then the facets; the label is the name as typed until search resolves it. */
function personChips(query: string, terms: readonly PersonTerm[]): QueryChip[] {
  const chips: QueryChip[] = [];
  for (const t of terms) {
    if (chips.some((c) => c.negated === t.negated && nameKey(c.value) === nameKey(t.name))) continue;
    chips.push({ field: 'person', value: t.name, label: t.name, negated: t.negated, phrase: query.slice(t.start, t.end) });
  }
  return chips;
}

function chipsOf(query: string, tokens: readonly Token[], found: readonly Found[]): Pick<ParsedQuery, 'include' | 'exclude' | 'chips'> {
  const include: TagSelection = {};
  const exclude: TagSelection = {};
  const chips: (QueryChip & { group: number; start: number })[] = [];
  for (const f of found) {
    const { field, value } = f.meaning;
    const start = tokens[f.from]!.start - (tokens[f.from]!.minus ? 1 : 0);
    const end = tokens[f.end - 1]!.end;
    const same = chips.find((c) => c.field === field && c.value === value && c.negated === f.negated);
    if (same) {
      // One chip per filter; a value named twice under one negation is one phrase ("not handheld or shaky").
      if (same.group === f.group) same.phrase = query.slice(same.start, end);
      continue;
    }
    const target = f.negated ? exclude : include;
    ((target[field] ??= []) as string[]).push(value);
    const label = field === 'people' ? PEOPLE_LABELS[value as PeopleValue] : tagLabel(field, value);
    chips.push({ field, value, label, negated: f.negated, phrase: query.slice(start, end), group: f.group, start });
  }
  return { include, exclude, chips: chips.map(({ group: _g, start: _s, ...c }) => c) };
}

/** Joining words left dangling at the ends once the chips' words are out ("a close-up, handheld" -> "a"). */
const DANGLING_END = new Set(['and', 'or', 'with', 'in', 'of', 'a', 'an', 'the', 'shot', 'shots']);
const DANGLING_START = new Set(['and', 'or', 'shot', 'shots']);

/** The words not taken by chips, as typed (quoted passages as they are, without their quotes), punctuation and dangling joining words dropped. */
function leftoverText(tokens: readonly Token[], taken: readonly boolean[]): string {
  const kept = tokens.map((t, k) => ({ t, k })).filter(({ t, k }) => !taken[k] && t.kind !== 'boundary');
  const dangling = (x: { t: Token } | undefined, set: ReadonlySet<string>) => x?.t.kind === 'word' && !x.t.minus && set.has(x.t.norm);
  while (dangling(kept[kept.length - 1], DANGLING_END)) kept.pop();
  while (dangling(kept[0], DANGLING_START)) kept.shift();
  return kept
    .map(({ t, k }, n) => {
      const joined = n > 0 && t.hyphenBefore && kept[n - 1]!.k === k - 1;
      return `${n === 0 ? '' : joined ? '-' : ' '}${t.minus ? '-' : ''}${t.raw}`;
    })
    .join('');
}

/** The filters of the search bar plus those the query's words named: included values add to a field, exclusions add to its exclusions. */
export function withParsedFilters(filters: SearchFilters, parsed: ParsedQuery): SearchFilters {
  if (parsed.chips.length === 0) return filters;
  const tags = { source: 'either' as const, ...filters.tags };
  const merged: SearchFilters['tags'] = { ...tags, exclude: { ...tags.exclude } };
  const add = (target: TagSelection, from: TagSelection) => {
    for (const f of FACET_FIELDS) {
      const v = from[f];
      if (!v?.length) continue;
      (target as Record<string, string[]>)[f] = [...new Set([...((target[f] as string[] | undefined) ?? []), ...v])];
    }
  };
  add(merged, parsed.include);
  add(merged.exclude!, parsed.exclude);
  return { ...filters, tags: merged };
}
