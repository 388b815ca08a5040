import { useState, type ReactNode } from 'react';
import type { Person } from '../../../src-shared/contract/people';
import { personLabel } from '../components/people/people-format';
import { PersonRow } from '../components/people/PersonRow';
import type { PersonChoice } from '../components/people/PersonActions';
import { usePeople } from '../components/people/use-people';
import '../components/people/people.css';

/**
 * People (issue 39): the faces of the library grouped into people. Named people first, then the
 * groups the grouping proposes, largest first; the editor names, merges, splits, hides, confirms
 * and forgets them here, and finds them anywhere else with `@Name`.
 */
export function PeopleView({ onOpenSettings }: { onOpenSettings: () => void }): ReactNode {
  const [showHidden, setShowHidden] = useState(false);
  const { people, recognition, loaded, error, reload, version } = usePeople(showHidden);
  const named = people.filter((p) => p.name !== null);
  const unnamed = people.filter((p) => p.name === null);
  const labels = new Map<number, string>([...named.map((p) => [p.id, personLabel(p, 0)] as const), ...unnamed.map((p, i) => [p.id, personLabel(p, i + 1)] as const)]);
  const choices = (self: number): PersonChoice[] => people.filter((p) => p.id !== self).map((p) => ({ id: p.id, label: labels.get(p.id)! }));
  const row = (p: Person) => <PersonRow key={p.id} person={p} label={labels.get(p.id)!} others={choices(p.id)} version={version} onChanged={reload} />;

  return (
    <div className="view people-view" data-view="people">
      <div className="row">
        <h1>People</h1>
        <span className="muted" data-testid="people-count">
          {named.length} named · {unnamed.length} unnamed group{unnamed.length === 1 ? '' : 's'}
        </span>
        <label className="pp-show-hidden">
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} data-field="show-hidden" /> Show hidden
        </label>
      </div>
      {!recognition && (
        <div className="banner" role="status" data-testid="recognition-off">
          <span>
            Face recognition is off: new faces are not told apart or grouped. The people below stay as they are. Turn it on in Settings, under Face recognition.
          </span>
          <button type="button" className="btn" onClick={onOpenSettings}>
            Open Settings
          </button>
        </div>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {loaded && people.length === 0 && !error && (
        <div className="empty" data-testid="people-empty">
          No people yet. Faces are grouped into people as clips are indexed; name a group here to find them with @Name in Search.
        </div>
      )}
      {named.length > 0 && (
        <section aria-labelledby="pp-named">
          <h2 id="pp-named" className="pp-section">
            Named
          </h2>
          <ul className="pp-list" data-testid="people-named">
            {named.map(row)}
          </ul>
        </section>
      )}
      {unnamed.length > 0 && (
        <section aria-labelledby="pp-unnamed">
          <h2 id="pp-unnamed" className="pp-section">
            Unnamed groups <span className="muted">(largest first: type a name to name one)</span>
          </h2>
          <ul className="pp-list" data-testid="people-unnamed">
            {unnamed.map(row)}
          </ul>
        </section>
      )}
    </div>
  );
}
