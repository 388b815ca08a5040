import type { PersonFace } from '../../../../src-shared/contract/people';
import { NO_SELECTION, nextSelection, type SelectionEvent, type SelectionState } from '../library/selection';

/**
 * The faces of one person as the faces panel holds them: the pages read so far (best first), how
 * many there are in all, and the editor's selection (the library's click/Shift/keyboard rules).
 */
export interface FacesState {
  faces: readonly PersonFace[];
  total: number;
  selection: SelectionState;
}

export type FacesEvent =
  /** A page arrived: offset 0 is the first page read again (the person changed), more pages add on. */
  | { type: 'page'; offset: number; faces: readonly PersonFace[]; total: number }
  /** These faces left the person (split out or moved to another). */
  | { type: 'moved'; faceIds: readonly number[] }
  | { type: 'select'; event: SelectionEvent };

export const NO_FACES: FacesState = { faces: [], total: 0, selection: NO_SELECTION };

export function nextFaces(s: FacesState, e: FacesEvent): FacesState {
  switch (e.type) {
    case 'page': {
      if (e.offset === 0) {
        // Read again: what is still there stays selected; positions mean other faces now.
        const present = new Set(e.faces.map((f) => f.faceId));
        const ids = new Set([...s.selection.ids].filter((id) => present.has(id)));
        return { faces: e.faces, total: e.total, selection: { ids, anchor: null, focus: null } };
      }
      const known = new Set(s.faces.map((f) => f.faceId));
      return { ...s, faces: [...s.faces, ...e.faces.filter((f) => !known.has(f.faceId))], total: e.total };
    }
    case 'moved': {
      const gone = new Set(e.faceIds);
      const faces = s.faces.filter((f) => !gone.has(f.faceId));
      return { faces, total: Math.max(faces.length, s.total - (s.faces.length - faces.length)), selection: NO_SELECTION };
    }
    case 'select':
      return { ...s, selection: nextSelection(s.selection, e.event, (i) => s.faces[i]?.faceId) };
  }
}

/** The selected faces in the panel's order (what a split sends). */
export const selectedFaceIds = (s: FacesState): number[] => s.faces.filter((f) => s.selection.ids.has(f.faceId)).map((f) => f.faceId);
