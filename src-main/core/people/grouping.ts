/**
 * Grouping faces into people, as pure functions over unit-length embeddings (cosine = dot product).
 *
 * - A face joins a known person when it is close to that person's prototype (the mean of their
 *   confirmed faces for a named person, of all their faces for a proposed group), clearly closer
 *   than to anyone else, and the editor has not said it is not them (`matchFace`).
 * - Faces that join nobody wait in a pool with the faces of proposed groups the editor has not
 *   touched; the pool is grouped again as a whole, density-based (DBSCAN over cosine distance,
 *   `dbscan`), in the faces' own order, so the groups do not depend on the order clips arrive in: a
 *   group needs `minFaces` faces each with `minFaces - 1` neighbours closer than `eps`, so a stray
 *   face never founds a person. A named person is never re-grouped by new footage, only joined; a
 *   proposed group keeps its id where most of its faces stay together (`keepGroupIds`).
 *
 * The thresholds come from MobileFaceNet's cosines on the sample clips (models/face-embedding
 * README: same person mean 0.75, the closest two different people 0.37) and from bench:people.
 */
export interface GroupingThresholds {
  /** Least cosine to a prototype for a face to join that person. */
  match: number;
  /** The best person must beat the second by this much, or the face waits (two look-alikes). */
  margin: number;
  /** DBSCAN's neighbourhood, as a least cosine. */
  groupCosine: number;
  /** DBSCAN's core size: faces a group needs (the face itself counted). */
  minFaces: number;
  /**
   * Two of DBSCAN's groups are one person when their prototypes are at least this close and each is
   * the other's clearly nearest group (`margin`): `linkGroups`.
   */
  linkCosine: number;
  /** Least cosine for "Is this <name>?" (below `match`: the matcher was not sure). */
  suggest: number;
}

/**
 * `linkCosine` 0.39: halfway between the highest cosine the model README measured between two
 * different people's faces (0.367) and its mean between the same person's small faces (0.416, the NTU
 * signer at 12-18 px between the eyes, whose faces DBSCAN's 0.55 leaves in pieces). A group's
 * prototype averages the noise of its faces away, so two different people's prototypes sit nearer
 * their mean (0.055) than their worst pair; the mutual margin guards the rest.
 */
export const DEFAULT_THRESHOLDS: GroupingThresholds = Object.freeze({ match: 0.5, margin: 0.06, groupCosine: 0.55, minFaces: 3, linkCosine: 0.39, suggest: 0.32 });

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The normalised mean of some unit vectors (null for none). */
export function prototypeOf(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]!;
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i]! * out[i]!;
  n = Math.sqrt(n);
  if (n === 0) return null;
  for (let i = 0; i < out.length; i++) out[i]! /= n;
  return out;
}

export interface Prototype {
  personId: number;
  vector: Float32Array;
}

export type Match = { personId: number; similarity: number } | null;

/** The person a face joins, or null (nobody close enough, or two people too close to tell). */
export function matchFace(face: Float32Array, prototypes: readonly Prototype[], refused: ReadonlySet<number>, t: GroupingThresholds): Match {
  let best: Prototype | null = null;
  let bestSim = -Infinity;
  let second = -Infinity;
  for (const p of prototypes) {
    const s = dot(face, p.vector);
    if (s > bestSim) {
      second = bestSim;
      bestSim = s;
      best = p;
    } else if (s > second) second = s;
  }
  if (!best || bestSim < t.match || bestSim - second < t.margin || refused.has(best.personId)) return null;
  return { personId: best.personId, similarity: bestSim };
}

/**
 * DBSCAN over cosine: the groups of `vectors` (indices into it), each of at least `minFaces`
 * faces; faces in no group are left out. Deterministic: points are visited in order. A point may
 * stand for several faces (`weights`: a track's mean for its faces): a point is a core when it and
 * its neighbours hold `minFaces` faces.
 * O(n^2) dot products: the pool it runs on is the faces nobody claimed, kept small by matching first.
 */
export function dbscan(vectors: readonly Float32Array[], t: Pick<GroupingThresholds, 'groupCosine' | 'minFaces'>, weights?: readonly number[]): number[][] {
  const n = vectors.length;
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (dot(vectors[i]!, vectors[j]!) >= t.groupCosine) {
        neighbours[i]!.push(j);
        neighbours[j]!.push(i);
      }
    }
  }
  const w = (i: number) => weights?.[i] ?? 1;
  const core = neighbours.map((nb, i) => nb.reduce((sum, j) => sum + w(j), w(i)) >= t.minFaces);
  const label = new Int32Array(n).fill(-1);
  const groups: number[][] = [];
  for (let i = 0; i < n; i++) {
    if (label[i] !== -1 || !core[i]) continue;
    const g = groups.length;
    const members: number[] = [];
    const stack = [i];
    label[i] = g;
    while (stack.length) {
      const p = stack.pop()!;
      members.push(p);
      if (!core[p]) continue;
      for (const q of neighbours[p]!) {
        if (label[q] !== -1) continue;
        label[q] = g;
        stack.push(q);
      }
    }
    groups.push(members.sort((a, b) => a - b));
  }
  return groups;
}

/**
 * DBSCAN's groups (`prototypes`: each group's prototype) joined where two are one person seen in
 * worse conditions (a small, compressed or mirrored copy): groups A and B join when their prototypes'
 * cosine is at least `linkCosine` and B is A's nearest group by at least `margin` over A's second
 * nearest, and A is B's likewise (mutual: a group between two people joins neither). Each pair is
 * judged on the prototypes alone, so the answer depends on the groups, not on their order. Returns
 * the joined groups as lists of indices into `prototypes`, ascending, ordered by their first index.
 */
export function linkGroups(prototypes: readonly Float32Array[], t: Pick<GroupingThresholds, 'linkCosine' | 'margin'>): number[][] {
  const n = prototypes.length;
  const sim = prototypes.map((a) => prototypes.map((b) => dot(a, b)));
  // Each group's nearest other group, if clearly nearest.
  const nearest = sim.map((row, i) => {
    let best = -1;
    let bestSim = -Infinity;
    let second = -Infinity;
    row.forEach((s, j) => {
      if (j === i) return;
      if (s > bestSim) {
        second = bestSim;
        bestSim = s;
        best = j;
      } else if (s > second) second = s;
    });
    return best >= 0 && bestSim >= t.linkCosine && bestSim - second >= t.margin ? best : -1;
  });
  // Mutual nearest pairs: a group has one nearest, so a join is of two groups, never a chain.
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const j = nearest[i]!;
    if (j >= 0 && nearest[j] === i) {
      if (j > i) out.push([i, j]);
    } else out.push([i]);
  }
  return out;
}

/** A group the pool's regroup proposes: an existing proposed group's id kept, or null for a new group. */
export interface ProposedGroup {
  personId: number | null;
  faces: number[];
}

/**
 * The pool's new groups (`clusters`, face ids, in the pool's content order) given ids: a cluster keeps
 * the id of the proposed group that had more than half of its faces in it (pairs taken by overlap,
 * largest first), so the People view does not reshuffle under the editor when a group only grows or
 * loses a few faces. A face the editor said is not that person (`refused`) is left out of it; a group
 * left with fewer than `minFaces` faces is no group. Pure: the same clusters and groups give the same ids.
 */
export function keepGroupIds(clusters: readonly number[][], before: ReadonlyMap<number, number>, refused: ReadonlyMap<number, ReadonlySet<number>>, minFaces: number): ProposedGroup[] {
  const sizeBefore = new Map<number, number>();
  for (const p of before.values()) sizeBefore.set(p, (sizeBefore.get(p) ?? 0) + 1);
  const pairs: Array<{ c: number; p: number; n: number }> = [];
  clusters.forEach((faces, c) => {
    const n = new Map<number, number>();
    for (const f of faces) {
      const p = before.get(f);
      if (p !== undefined) n.set(p, (n.get(p) ?? 0) + 1);
    }
    for (const [p, k] of n) if (2 * k > sizeBefore.get(p)!) pairs.push({ c, p, n: k });
  });
  pairs.sort((a, b) => b.n - a.n || a.p - b.p || a.c - b.c);
  const idOf = new Map<number, number>();
  const taken = new Set<number>();
  for (const { c, p } of pairs) {
    if (idOf.has(c) || taken.has(p)) continue;
    idOf.set(c, p);
    taken.add(p);
  }
  const out: ProposedGroup[] = [];
  clusters.forEach((faces, c) => {
    const personId = idOf.get(c) ?? null;
    const kept = personId === null ? faces : faces.filter((f) => !refused.get(f)?.has(personId));
    if (kept.length >= minFaces) out.push({ personId, faces: kept });
  });
  return out;
}
