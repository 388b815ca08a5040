import type { teamMethods } from '../../../src-shared/contract/team';
import type { HandlersFor } from '../rpc/handlers';
import type { TeamSettings } from './team-settings';

/** The contract's team.* methods over the team settings (the password goes in, never out). */
export function createTeamHandlers(team: TeamSettings): HandlersFor<typeof teamMethods> {
  return {
    'team.status': () => team.status(),
    'team.configure': ({ settings, password }) => team.join(settings, password),
    'team.check': ({ form }) => (form ? team.tryForm(form.settings, form.password) : team.check()),
    'team.leave': () => team.leave(),
  };
}
