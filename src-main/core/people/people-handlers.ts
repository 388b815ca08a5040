import type { peopleMethods, PersonFace } from '../../../src-shared/contract/people';
import type { CatalogDb } from '../catalog/open-catalog';
import type { HandlersFor } from '../rpc/handlers';
import { clipFaceNames, faceViews, faceViewsByIds, type FaceView } from './face-read-store';
import { foldedKey } from './person-names';
import * as people from './people-store';
import type { PeopleService } from './people-service';

/** Strip of the People view: this many of a person's best faces. */
const STRIP = 8;

const toFace = (f: FaceView): PersonFace => ({
  faceId: f.faceId,
  clipId: f.clipId,
  clipName: f.clipName,
  frame: f.frame,
  timeS: f.timeS,
  quality: f.quality,
  image: f.thumb ? `data:image/png;base64,${f.thumb.toString('base64')}` : null,
  how: f.how,
});

export function createPeopleHandlers(db: CatalogDb, service: PeopleService, recognition: () => boolean): HandlersFor<typeof peopleMethods> {
  return {
    'people.list': ({ hidden }) => {
      const counts = people.personCounts(db);
      const list = people
        .allPeople(db)
        .filter((p) => hidden || p.hidden === 0)
        .map((p) => {
          const c = counts.get(p.id) ?? { faces: 0, clips: 0, matched: 0 };
          return {
            id: p.id,
            uuid: p.uuid,
            name: p.name,
            hidden: p.hidden === 1,
            faces: c.faces,
            clips: c.clips,
            best: faceViews(db, p.id, 0, STRIP).faces.map(toFace),
            suggestions: p.name === null ? 0 : c.matched,
          };
        })
        .filter((p) => p.faces > 0 || p.name !== null)
        // Named people by name, then the proposed groups, largest first.
        .sort((a, b) => (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) || (a.name !== null && b.name !== null ? a.name.localeCompare(b.name) : b.faces - a.faces) || a.id - b.id);
      return { people: list, recognition: recognition() };
    },
    'people.faces': ({ personId, offset, limit }) => {
      people.personById(db, personId);
      const page = faceViews(db, personId, offset, limit);
      return { faces: page.faces.map(toFace), total: page.total };
    },
    'people.suggestions': ({ personId, limit }) => {
      people.personById(db, personId);
      const ids = service.suggestions(personId, limit);
      return { faces: faceViewsByIds(db, ids).map(toFace) };
    },
    'people.name': ({ personId, name }) => (service.name(personId, name), { ok: true as const }),
    'people.merge': ({ from, into }) => (service.merge(from, into), { ok: true as const }),
    'people.split': ({ personId, faceIds, into }) => ({ personId: service.split(personId, faceIds, into) }),
    'people.hide': ({ personId, hidden }) => (service.hide(personId, hidden), { ok: true as const }),
    'people.confirm': ({ faceId, personId, yes }) => (service.confirm(faceId, personId, yes), { ok: true as const }),
    'people.forget': ({ personId }) => (service.forget(personId), { ok: true as const }),
    'people.names': ({ prefix }) => {
      const key = foldedKey(prefix);
      const names = people.knownNames(db);
      const starts = names.filter((n) => foldedKey(n).startsWith(key));
      const inside = names.filter((n) => !foldedKey(n).startsWith(key) && foldedKey(n).includes(key));
      return { names: [...starts, ...inside].slice(0, 20) };
    },
    'people.inClips': ({ clipIds }) => ({ clips: Object.fromEntries([...people.namesInClips(db, clipIds)].map(([id, names]) => [String(id), names])) }),
    'people.clipFaces': ({ clipId }) => ({ faces: clipFaceNames(db, clipId) }),
  };
}
