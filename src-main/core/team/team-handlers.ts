import type { teamMethods } from '../../../src-shared/contract/team';
import type { HandlersFor } from '../rpc/handlers';
import type { TeamSettings } from './seat/team-settings';

/**
 * The contract's team.* methods over the team settings (the password goes in, never out); they answer
 * whatever state the catalog is in. team.activity is the open catalog's (app-core.ts).
 */
export function createTeamHandlers(team: TeamSettings): Omit<HandlersFor<typeof teamMethods>, 'team.activity'> {
  return {
    'team.status': () => team.status(),
    'team.configure': ({ settings, password }) => team.join(settings, password),
    'team.check': ({ form }) => (form ? team.tryForm(form.settings, form.password) : team.check()),
    'team.leave': () => team.leave(),
  };
}
