import type { CatalogDb } from '../catalog/open-catalog';
import { facesOfPerson } from './face-read-store';
import { prototypeOf, type Prototype } from './grouping';

/**
 * The prototypes of the people the editor holds (people-store.ts `heldPeople`), kept in memory
 * between clips (reading every face's embedding per clip would cost more than the matching): the
 * mean of the faces the editor confirmed, so what the matcher adds never drifts the person; a hidden
 * group with no confirmed face, the mean of all its faces. A person whose faces changed is read
 * again at the next use.
 */
export class PrototypeCache {
  private readonly cache = new Map<number, Float32Array | null>();

  constructor(
    private readonly db: CatalogDb,
    private readonly model: () => string,
  ) {}

  /** Faces of this person changed (named, merged, split, confirmed, matched into a group). */
  stale(personId: number): void {
    this.cache.delete(personId);
  }

  /** Everything changed (a regroup, another model). */
  clear(): void {
    this.cache.clear();
  }

  /** The prototypes of `held`, in id order. */
  list(held: ReadonlySet<number>): Prototype[] {
    for (const id of this.cache.keys()) if (!held.has(id)) this.cache.delete(id);
    const out: Prototype[] = [];
    for (const id of [...held].sort((a, b) => a - b)) {
      if (!this.cache.has(id)) this.cache.set(id, this.read(id));
      const v = this.cache.get(id);
      if (v) out.push({ personId: id, vector: v });
    }
    return out;
  }

  private read(personId: number): Float32Array | null {
    const confirmed = facesOfPerson(this.db, personId, this.model(), true);
    const faces = confirmed.length ? confirmed : facesOfPerson(this.db, personId, this.model(), false);
    return prototypeOf(faces.map((f) => f.embedding));
  }
}
