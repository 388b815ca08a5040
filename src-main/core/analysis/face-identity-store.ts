import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/**
 * The one writer of `face_identity` (catalog migration 0053): what the analysis decode learnt of a
 * face besides its box. Rows are made with their `shot_faces` row and go with it.
 */

/** "Forget this person": the faces' embeddings and crops are deleted and the faces never assigned again. */
export function forgetFaceIdentities(db: CatalogDb, faceIds: readonly number[]): void {
  const q = statement(db, 'UPDATE face_identity SET embedding = NULL, thumb = NULL, assignable = 0 WHERE face_id = ?');
  for (const id of faceIds) q.run(id);
}

/** The identity embedding's model and version: embeddings of another id are another space, never compared. */
export const FACE_EMBEDDING_MODEL = 'mobilefacenet-a6cc9032';
