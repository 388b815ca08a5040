/**
 * The closed word classes of English the query grammar looks at around a camera word: what comes
 * before or after it decides whether "wide", "pan" or "couple" is used as a camera or people word.
 * Words are in the tokenizer's normal form (lower case, apostrophes dropped: "isn't" -> "isnt").
 */
const set = (words: string) => new Set(words.split(' '));

/** Turn the camera or people phrase after them into an exclusion ("not handheld", "without drone shots"). */
export const NEGATORS = set('not no without non never nor except excluding isnt arent dont doesnt wasnt werent');
export const DETERMINERS = set('a an the this that these those some any his her their its my our your every each');
export const CONJUNCTIONS = set('and or nor but then plus versus vs');
/** Conjunctions that carry a negation on to the next phrase ("not handheld or shaky"). */
export const NEGATION_CARRIERS = set('or nor');
export const PREPOSITIONS = set(
  'of on in at from to with by for over under across along around through into onto past toward towards near behind above below between inside outside during after before against off up down',
);
/** Words that name the shot, the camera or its movement: beside an everyday word they make it a camera word ("close shot", "camera pan"). */
export const CUES = set('shot shots angle angles view views camera cameras cam cams footage framing movement movements');
/** Cues that may stand before the camera word they belong to ("camera pan", "camera looking up"). */
export const LEADING_CUES = set('camera cam');
/** The field's own name: "no camera movement" names the value static. */
export const MOVEMENT_NAMES = set('movement movements motion move moving');
/** After a movement word they make it a camera move ("pan across the city", "orbit around a statue"). */
export const DIRECTIONS = set('left right up down in out back forward forwards away across over along around through past into onto toward towards from to');
/** A bare direction after a movement word belongs to the chip ("pan up"); prepositions stay in the text. */
export const BARE_DIRECTIONS = set('up down left right back forward forwards');
/** Before a movement word they make it a camera move ("slow zoom", "quick pan"). */
export const MANNERS = set('slow slowly fast quick quickly rapid rapidly smooth smoothly gentle gently sweeping subtle sudden suddenly steady gradual slight');
/** Before a camera carrier they make it one ("from a drone", "on a tripod"). */
export const CARRIER_PREPOSITIONS = set('from on by');
/** Nouns for people: a count before one names a people value ("two men", "3 people"). */
export const HUMAN_NOUNS = set('people person persons man men woman women guy guys girl girls boy boys kid kids child children adult adults human humans');
/** What "no" or "without" before it turns into the value "no people" ("without any people"). */
export const ANYONE = set('people person persons anyone anybody someone somebody humans');

const COUNT_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  single: 1,
  lone: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  several: 3,
  many: 3,
  multiple: 3,
  few: 3,
};

/** How many a word counts ("two", "2", "several"): undefined for any other word. */
export function countOf(word: string): number | undefined {
  if (/^\d{1,3}$/.test(word)) return Number(word);
  return COUNT_WORDS[word];
}

/** Any closed-class word: not a content word, so never the noun a camera adjective modifies, nor a subject. */
export function isFunctionWord(w: string): boolean {
  return NEGATORS.has(w) || DETERMINERS.has(w) || CONJUNCTIONS.has(w) || PREPOSITIONS.has(w) || CUES.has(w) || DIRECTIONS.has(w) || MANNERS.has(w);
}
