/**
 * Bounds the spec leaves open, learned from the service's own answers and kept in the shared key
 * state of its address (one per region) for the life of the process: every client of that service
 * and key uses them.
 */
export interface LearnedLimits {
  /** Largest top_k the collection search accepted or named; 'omit' when it refused top_k without naming a bound. */
  searchTopK?: number | 'omit';
}

/**
 * The bound a 400/422 names, in the phrasings validators use: "at most 20", "<= 20", "less than or
 * equal to 20", "maximum 20", "from 1 to 20", "between 1 and 20", "max: 20". Undefined when it names
 * none. The caller only asks this of a refused search that sent top_k, so a bare number is top_k's.
 */
export function topKBoundFromMessage(message: string): number | undefined {
  const m = message.toLowerCase();
  const patterns: [RegExp, number][] = [
    [/at most\s+(\d+)/, 0],
    [/<=\s*(\d+)/, 0],
    [/less than or equal to\s+(\d+)/, 0],
    [/not (?:be )?(?:greater|more) than\s+(\d+)/, 0],
    [/max(?:imum)?(?: (?:value|is|of))?[:=\s]+(\d+)/, 0],
    [/from\s+\d+\s+to\s+(\d+)/, 0],
    [/between\s+\d+\s+and\s+(\d+)/, 0],
    // "less than N" excludes N itself.
    [/less than\s+(\d+)/, -1],
  ];
  for (const [p, shift] of patterns) {
    const hit = p.exec(m);
    if (!hit) continue;
    const bound = Number(hit[1]) + shift;
    if (Number.isInteger(bound) && bound >= 1) return bound;
  }
  return undefined;
}
