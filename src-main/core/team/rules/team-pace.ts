/**
 * The team-wide rate on the shared API key (team migration 0012, which applies the same rule on the
 * server's clock): a 429 one seat is answered holds every seat's sends, but never for long on one
 * seat's word. A pure rule, so the server's SQL and this can be checked against each other.
 */

/** A 429 without Retry-After holds the team this long: the service counts its rate per second. */
export const TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS = 1_000;
/** However long a Retry-After says, one seat's 429 never holds the team longer than this. */
export const TEAM_PAUSE_MAX_MS = 10 * 60_000;

/** How long one 429 holds the team: its Retry-After (or a second without one), within 0..TEAM_PAUSE_MAX_MS. */
export function teamPauseMs(retryAfterMs: number | undefined): number {
  const asked = retryAfterMs === undefined || !Number.isFinite(retryAfterMs) ? TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS : Math.ceil(retryAfterMs);
  return Math.min(Math.max(asked, 0), TEAM_PAUSE_MAX_MS);
}

/**
 * The team's hold after one more 429, as a time on one clock: from `now`, for `teamPauseMs`, and
 * never earlier than the hold already set (another seat's longer wait stands).
 */
export function nextTeamPauseUntil(currentUntil: number | null, now: number, retryAfterMs: number | undefined): number {
  const proposed = now + teamPauseMs(retryAfterMs);
  return currentUntil === null ? proposed : Math.max(currentUntil, proposed);
}
