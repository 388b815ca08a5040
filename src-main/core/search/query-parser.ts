import { FACET_FIELDS, type FacetField, type SearchFilters, type TagSelection } from '../../../src-shared/contract/search';
import { TAG_VOCABULARY, tagLabel } from '../tags/tag-vocabulary';
import { PEOPLE_LABELS, type PeopleValue } from './tag-resolution';

/**
 * Camera, framing, angle and people words in a text query become facet filters; only the rest of
 * the text goes to encode_text (a text model reads "close-up" as a picture of something close, not
 * as a framing). Phrases are matched longest first on whole words, case-insensitively; industry
 * abbreviations (CU, MCU, WS, EWS...) only when typed in capitals, since "ms" or "cu" in lower case
 * are as likely to be words. A phrase preceded by "not", "no", "without" or prefixed with "-" is an
 * exclusion ("not handheld", "-handheld"). Words that mean something else on their own ("close",
 * "high", "long", "pan", "crane", "drone", "dutch") are taken only in a phrase that makes them camera
 * words ("pan left", "crane shot"): otherwise they stay in the text.
 */

export interface QueryChip {
  field: FacetField;
  value: string;
  label: string;
  negated: boolean;
  /** The words of the query this chip came from, as typed. */
  phrase: string;
}

export interface ParsedQuery {
  /** What goes to encode_text: the query without the phrases taken as filters (may be empty). */
  text: string;
  include: TagSelection;
  exclude: TagSelection;
  chips: QueryChip[];
}

type Target = { field: FacetField; value: string };

/** Phrases typed in queries, by field and vocabulary id, beside each entry's own label and id. */
const QUERY_PHRASES: Record<Exclude<FacetField, 'people'>, Record<string, string[]>> = {
  shotSize: {
    extreme_close_up: ['extreme close up', 'extreme closeup', 'extreme close up shot', 'detail shot', 'macro shot'],
    close_up: ['close up', 'closeup', 'close up shot', 'close shot', 'tight shot'],
    medium_close_up: ['medium close up', 'medium closeup', 'medium close shot'],
    medium: ['medium shot', 'mid shot', 'midshot', 'waist shot', 'medium'],
    medium_wide: ['medium wide', 'medium wide shot', 'medium long shot', 'cowboy shot', 'full body shot'],
    wide: ['wide', 'wide shot', 'wide angle shot', 'long shot', 'full shot', 'wideshot'],
    extreme_wide: ['extreme wide', 'extreme wide shot', 'extreme long shot', 'establishing shot', 'very wide shot'],
  },
  cameraMovement: {
    static: ['static', 'static shot', 'locked off', 'locked off shot', 'tripod shot', 'still camera', 'no camera movement'],
    pan_left: ['pan left', 'panning left', 'pans left', 'pan to the left'],
    pan_right: ['pan right', 'panning right', 'pans right', 'pan to the right'],
    pan: ['panning', 'pan shot', 'whip pan', 'camera pan'],
    tilt_up: ['tilt up', 'tilting up', 'tilts up'],
    tilt_down: ['tilt down', 'tilting down', 'tilts down'],
    tilt: ['tilt', 'tilting', 'tilt shot'],
    zoom_in: ['zoom in', 'zooming in', 'zooms in', 'push in zoom'],
    zoom_out: ['zoom out', 'zooming out', 'zooms out'],
    zoom: ['zoom', 'zooming', 'crash zoom'],
    dolly_in: ['dolly in', 'push in', 'dolly forward'],
    dolly_out: ['dolly out', 'pull out', 'pull back', 'dolly back'],
    tracking: ['tracking', 'tracking shot', 'dolly', 'dolly shot', 'steadicam', 'follow shot', 'trucking shot'],
    crane: ['crane shot', 'jib shot', 'boom shot'],
    arc: ['arc shot', 'orbit shot', 'orbiting'],
    handheld: ['handheld', 'hand held', 'handheld camera', 'handheld shot', 'shaky cam', 'shaky camera'],
    aerial: ['aerial', 'aerial shot', 'aerial view', 'drone shot', 'from a drone', 'helicopter shot'],
  },
  shootingAngle: {
    eye_level: ['eye level', 'eye level shot', 'eye level angle'],
    high_angle: ['high angle', 'high angle shot', 'from above', 'looking down'],
    low_angle: ['low angle', 'low angle shot', 'from below', 'looking up', 'worms eye', 'worms eye view'],
    overhead: ['overhead', 'overhead shot', 'top down', 'top down shot', 'birds eye', 'birds eye view', 'top shot'],
    dutch: ['dutch angle', 'dutch tilt', 'canted angle', 'canted'],
  },
};

const PEOPLE_PHRASES: Record<PeopleValue, string[]> = {
  no_people: ['no people', 'no person', 'nobody', 'no one', 'without people', 'empty of people', 'unpopulated'],
  one_person: ['one person', 'single person', 'a single person', '1 person', 'one man', 'one woman', 'alone', 'solo'],
  two_people: ['two people', 'two persons', '2 people', 'a couple', 'couple', 'duo', 'pair of people'],
  group: ['group', 'group of people', 'crowd', 'crowds', 'many people', 'three people', 'several people'],
};

/** Abbreviations: taken only as typed in capitals. */
const ABBREVIATIONS: Record<string, Target> = {
  ECU: { field: 'shotSize', value: 'extreme_close_up' },
  XCU: { field: 'shotSize', value: 'extreme_close_up' },
  BCU: { field: 'shotSize', value: 'extreme_close_up' },
  CU: { field: 'shotSize', value: 'close_up' },
  MCU: { field: 'shotSize', value: 'medium_close_up' },
  MS: { field: 'shotSize', value: 'medium' },
  MWS: { field: 'shotSize', value: 'medium_wide' },
  MLS: { field: 'shotSize', value: 'medium_wide' },
  WS: { field: 'shotSize', value: 'wide' },
  LS: { field: 'shotSize', value: 'wide' },
  EWS: { field: 'shotSize', value: 'extreme_wide' },
  ELS: { field: 'shotSize', value: 'extreme_wide' },
  XLS: { field: 'shotSize', value: 'extreme_wide' },
};

const NEGATIONS = new Set(['not', 'no', 'without', 'non']);
const MAX_WORDS = 5;

/** Lower case, apostrophes dropped, hyphens and other punctuation as spaces: "Bird's-eye" -> "birds eye". */
function normal(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const PHRASES: ReadonlyMap<string, Target> = (() => {
  const m = new Map<string, Target>();
  const add = (phrase: string, t: Target) => {
    const key = normal(phrase);
    const prior = m.get(key);
    if (prior && (prior.field !== t.field || prior.value !== t.value)) throw new Error(`query phrase "${phrase}" means two things`);
    m.set(key, t);
  };
  for (const [field, byId] of Object.entries(QUERY_PHRASES) as [Exclude<FacetField, 'people'>, Record<string, string[]>][]) {
    const known = new Set(TAG_VOCABULARY[field].map((e) => e.id));
    for (const [value, phrases] of Object.entries(byId)) {
      if (!known.has(value)) throw new Error(`query phrases name ${field} ${value}, which is not in the vocabulary`);
      for (const p of phrases) add(p, { field, value });
    }
  }
  for (const [value, phrases] of Object.entries(PEOPLE_PHRASES) as [PeopleValue, string[]][]) for (const p of phrases) add(p, { field: 'people', value });
  return m;
})();

interface Word {
  raw: string;
  norm: string;
  /** Typed with a leading "-": an exclusion. */
  minus: boolean;
}

export function parseQuery(query: string): ParsedQuery {
  const words: Word[] = query
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((raw) => ({ raw, norm: normal(raw.replace(/^-+/, '')), minus: /^-\S/.test(raw) }));
  const include: TagSelection = {};
  const exclude: TagSelection = {};
  const chips: QueryChip[] = [];
  const kept: string[] = [];
  for (let i = 0; i < words.length; ) {
    let match: { t: Target; n: number } | null = null;
    for (let n = Math.min(MAX_WORDS, words.length - i); n >= 1 && !match; n--) {
      const span = words.slice(i, i + n);
      // A "-" only negates a phrase from its first word.
      if (span.slice(1).some((w) => w.minus)) continue;
      const key = span.map((w) => w.norm).filter(Boolean).join(' ');
      const t = PHRASES.get(key) ?? (n === 1 ? ABBREVIATIONS[span[0]!.raw.replace(/^-+/, '').replace(/[^A-Za-z]/g, '')] : undefined);
      if (t && (n > 1 || PHRASES.has(key) || /^-?[A-Z]+[^a-z]*$/.test(span[0]!.raw))) match = { t, n };
    }
    if (!match) {
      kept.push(words[i]!.raw);
      i++;
      continue;
    }
    const prev = kept.length > 0 ? normal(kept[kept.length - 1]!) : '';
    const negated = words[i]!.minus || NEGATIONS.has(prev);
    if (negated && NEGATIONS.has(prev)) kept.pop();
    const phrase = words
      .slice(i, i + match.n)
      .map((w) => w.raw)
      .join(' ');
    const target = negated ? exclude : include;
    const list = (target[match.t.field] ??= []) as string[];
    if (!list.includes(match.t.value)) list.push(match.t.value);
    const label = match.t.field === 'people' ? PEOPLE_LABELS[match.t.value as PeopleValue] : tagLabel(match.t.field, match.t.value);
    chips.push({ field: match.t.field, value: match.t.value, label, negated, phrase: NEGATIONS.has(prev) && negated ? `${prev} ${phrase}` : phrase });
    i += match.n;
  }
  // Joining words left over ("a close-up, handheld" -> "a"): commas and lone connectives go too.
  const text = kept
    .join(' ')
    .replace(/\s*[,;]+\s*/g, ' ')
    .replace(/\b(and|or|with|in|a|an|the|shot|shots)\b(?=\s*$)/gi, '')
    .replace(/^\s*\b(and|or|shot|shots)\b/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, include, exclude, chips };
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
