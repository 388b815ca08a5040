import { useState, type ReactNode } from 'react';
import type { Person } from '../../../../src-shared/contract/people';
import { FaceTile } from './FaceTile';
import { NameField } from './NameField';
import { countsLine } from './people-format';
import { ForgetConfirm, PersonPicker, useRowCall, type PersonChoice } from './PersonActions';
import { PersonFaces } from './PersonFaces';
import { Suggestions } from './Suggestions';

const STRIP_TILE = 80;

/**
 * One person or proposed group: the strip of best faces, how much footage they span, the name
 * typed in place, and what the editor does with them (merge, hide, forget, open their faces).
 */
export function PersonRow({ person, label, others, version, onChanged }: {
  person: Person;
  /** The name, or "Unnamed group 2 (…)" as the pickers call it. */
  label: string;
  others: readonly PersonChoice[];
  version: number;
  onChanged: () => void;
}): ReactNode {
  const [open, setOpen] = useState(false);
  const [forgetting, setForgetting] = useState(false);
  const { run, error, busy } = useRowCall(onChanged);
  const facesId = `pp-faces-${person.id}`;
  // A group's short name in the buttons: "Not this group" reads better than its long label.
  const short = person.name ?? 'this group';

  return (
    <li className={`pp-row card${person.hidden ? ' is-hidden' : ''}`} data-person-id={person.id} data-person-name={person.name ?? ''} aria-label={label}>
      <div className="pp-head">
        <NameField personId={person.id} name={person.name} label={person.name ? `Name of ${person.name}` : `Name for ${label}`} onSaved={onChanged} />
        <span className="pp-counts" data-testid="person-counts">
          {countsLine(person)}
          {person.hidden && <span className="badge"> hidden</span>}
        </span>
        <span className="pp-actions">
          <button type="button" className="btn" aria-expanded={open} aria-controls={facesId} onClick={() => setOpen((o) => !o)} data-action="open-faces">
            {open ? 'Close faces' : `Faces (${person.faces})`}
          </button>
          <PersonPicker choices={others} label="Merge into…" action="merge" disabled={busy} onPick={(into) => void run('people.merge', { from: person.id, into })} />
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void run('people.hide', { personId: person.id, hidden: !person.hidden })}
            title={person.hidden ? 'Show again in People and in @ completion' : 'Not a person of interest: leave them out of People and @ completion (still found by name)'}
            data-action="hide"
          >
            {person.hidden ? 'Unhide' : 'Hide'}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setForgetting(true)} data-action="forget">
            Forget…
          </button>
        </span>
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {forgetting && (
        <ForgetConfirm
          label={person.name ?? 'this group'}
          faces={person.faces}
          onCancel={() => setForgetting(false)}
          onForget={() => void run('people.forget', { personId: person.id }).then(() => setForgetting(false))}
        />
      )}
      <ul className="pp-strip" aria-label={`Best faces of ${label}`}>
        {person.best.map((f) => (
          <li key={f.faceId}>
            <FaceTile face={f} size={STRIP_TILE} />
          </li>
        ))}
      </ul>
      {person.name && <Suggestions personId={person.id} name={person.name} version={version} onChanged={onChanged} />}
      <div id={facesId}>{open && <PersonFaces personId={person.id} label={short} others={others} version={version} onChanged={onChanged} />}</div>
    </li>
  );
}
