import { describe, expect, it } from 'vitest';
import { nextTeamPauseUntil, TEAM_PAUSE_MAX_MS, TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS, teamPauseMs } from '../../../src-main/core/team/rules/team-pace';

/** The clamp of the team-wide rate (team migration 0012 applies the same rule on the server's clock). */
describe('team pace: how long one seat\'s 429 holds the team', () => {
  it('holds for the Retry-After the seat was given, a second without one', () => {
    expect(teamPauseMs(3_000)).toBe(3_000);
    expect(teamPauseMs(1_500.2)).toBe(1_501);
    expect(teamPauseMs(undefined)).toBe(TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS);
    expect(teamPauseMs(Number.NaN)).toBe(TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS);
  });

  it('never longer than ten minutes, never negative', () => {
    expect(teamPauseMs(3_600_000)).toBe(TEAM_PAUSE_MAX_MS);
    expect(teamPauseMs(Number.POSITIVE_INFINITY)).toBe(TEAM_PAUSE_WITHOUT_RETRY_AFTER_MS);
    expect(teamPauseMs(-5_000)).toBe(0);
    expect(TEAM_PAUSE_MAX_MS).toBe(600_000);
  });

  it('a later, shorter hold never moves the team\'s hold earlier; a longer one moves it later', () => {
    const now = 1_000_000;
    const first = nextTeamPauseUntil(null, now, 60_000);
    expect(first).toBe(now + 60_000);
    expect(nextTeamPauseUntil(first, now + 1_000, 2_000)).toBe(first);
    expect(nextTeamPauseUntil(first, now + 1_000, 120_000)).toBe(now + 121_000);
    // A seat asking for an hour gets ten minutes from its own 429, whatever it sends later.
    const long = nextTeamPauseUntil(first, now, 3_600_000);
    expect(long).toBe(now + TEAM_PAUSE_MAX_MS);
    expect(nextTeamPauseUntil(long, now + 1, 3_600_000)).toBe(now + 1 + TEAM_PAUSE_MAX_MS);
  });
});
