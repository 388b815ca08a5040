import type { CatalogDb } from '../catalog/open-catalog';
import { facesOfPerson } from './face-read-store';
import { prototypeOf, type Prototype } from './grouping';
import { allPeople } from './people-store';

/**
 * Each person's prototype, kept in memory between clips (reading every face's embedding per clip
 * would cost more than the matching): a named person's is the mean of the faces the editor
 * confirmed, so what the matcher adds never drifts the person; a proposed group's is the mean of
 * all its faces. A person whose faces changed is read again at the next use.
 */
export class PrototypeCache {
  private readonly cache = new Map<number, Float32Array | null>();
  private all = false;

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
    this.all = false;
  }

  list(): Prototype[] {
    const people = allPeople(this.db);
    if (!this.all || people.some((p) => !this.cache.has(p.id))) {
      const live = new Set(people.map((p) => p.id));
      for (const id of this.cache.keys()) if (!live.has(id)) this.cache.delete(id);
      for (const p of people) if (!this.cache.has(p.id)) this.cache.set(p.id, this.read(p.id, p.name !== null));
      this.all = true;
    }
    const out: Prototype[] = [];
    for (const p of people) {
      const v = this.cache.get(p.id);
      if (v) out.push({ personId: p.id, vector: v });
    }
    return out;
  }

  private read(personId: number, named: boolean): Float32Array | null {
    const confirmed = named ? facesOfPerson(this.db, personId, this.model(), true) : [];
    const faces = confirmed.length ? confirmed : facesOfPerson(this.db, personId, this.model(), false);
    return prototypeOf(faces.map((f) => f.embedding));
  }
}
