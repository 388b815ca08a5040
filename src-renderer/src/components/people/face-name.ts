/** A named face of the clip (people.clipFaces) where the viewer draws a box. */
export interface NamedFacePlace {
  timeS: number;
  x: number;
  y: number;
  name: string | null;
}

/** Both reads (search.faces, people.clipFaces) come from the same face rows: one sample's time and box are the same numbers. */
const SAME = 1e-4;

/** The name of the person a box is (same sample, same box); null: nobody named, or not a face of this clip. */
export function nameOfBox(names: readonly NamedFacePlace[], timeS: number, box: { x: number; y: number }): string | null {
  return names.find((n) => Math.abs(n.timeS - timeS) < SAME && Math.abs(n.x - box.x) < SAME && Math.abs(n.y - box.y) < SAME)?.name ?? null;
}
