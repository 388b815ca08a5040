import type { TeamRuntime } from '../team-port';
import { createTeamHandlers } from './team-handlers';
import { createTeamRuntime, type TeamRuntimeOptions } from './team-runtime';
import { createTeamSettings, type TeamSettingsDeps } from './seat/team-settings';

/** The contract's team.* methods but team.activity (the open catalog's): they answer whatever state the catalog is in. */
export type TeamOptInHandlers = ReturnType<typeof createTeamHandlers>;

/** What an open catalog hands the room to run its seat: all of the runtime's options but the opt-in, which the room keeps. */
export type TeamRuntimeNeeds = Omit<TeamRuntimeOptions, 'settings'>;

/**
 * The team room's one door for the app's composition (reached only through ../team-port.ts): the
 * settings module opens it beside Settings, and each open catalog asks it for the seat's runtime.
 * The opt-in (`team.json` and the password) stays inside: the handlers and the runtime share it.
 */
export interface TeamRoom {
  handlers: TeamOptInHandlers;
  /** The team library of one open catalog: runs while joined, starts and stops as the user joins and leaves. */
  runtime(needs: TeamRuntimeNeeds): TeamRuntime;
}

export function openTeamRoom(d: TeamSettingsDeps): TeamRoom {
  const settings = createTeamSettings(d);
  return {
    handlers: createTeamHandlers(settings),
    runtime: (needs) => createTeamRuntime({ ...needs, settings }),
  };
}
