import { useEffect, useState, type ReactNode } from 'react';
import type { PersonFace } from '../../../../src-shared/contract/people';
import { api } from '../../api/client';
import { FaceTile } from './FaceTile';
import { faceWhere } from './people-format';
import { useRowCall } from './PersonActions';

/** Faces asked about at once: a short strip the editor answers, the next ones come after. */
const ASKED = 8;

/**
 * "Is this Maria?": faces the matcher thinks are this named person, each with Yes and No. An
 * answered face leaves the strip at once; the next read brings the following ones.
 */
export function Suggestions({ personId, name, version, onChanged }: { personId: number; name: string; version: number; onChanged: () => void }): ReactNode {
  const [faces, setFaces] = useState<readonly PersonFace[]>([]);
  const { run, error, busy } = useRowCall(onChanged);
  useEffect(() => {
    let live = true;
    api.call('people.suggestions', { personId, limit: ASKED }).then(
      (r) => live && setFaces(r.faces),
      () => live && setFaces([]),
    );
    return () => {
      live = false;
    };
  }, [personId, version]);
  if (faces.length === 0) return null;

  const answer = (faceId: number, yes: boolean) =>
    void run('people.confirm', { faceId, personId, yes }).then((ok) => ok && setFaces((fs) => fs.filter((f) => f.faceId !== faceId)));

  return (
    <section className="pp-suggest" aria-label={`Is this ${name}?`} data-testid="suggestions">
      <h3 className="pp-suggest-q">Is this {name}?</h3>
      <ul className="pp-suggest-list">
        {faces.map((f) => (
          <li key={f.faceId} className="pp-suggest-face" data-face-id={f.faceId}>
            <FaceTile face={f} size={72} />
            <span className="pp-yesno">
              <button type="button" className="btn small" disabled={busy} onClick={() => answer(f.faceId, true)} aria-label={`Yes, the face in ${faceWhere(f)} is ${name}`} data-action="suggest-yes">
                Yes
              </button>
              <button type="button" className="btn small" disabled={busy} onClick={() => answer(f.faceId, false)} aria-label={`No, the face in ${faceWhere(f)} is not ${name}`} data-action="suggest-no">
                No
              </button>
            </span>
          </li>
        ))}
      </ul>
      {error && <p className="error-text" role="alert">{error}</p>}
    </section>
  );
}
