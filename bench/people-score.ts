import path from 'node:path';
import type { LabelledFile, PeopleSet } from './people-set';

/**
 * How well `@Name` found the labelled people: per file (the files returned for a person against the
 * files labelled with them) and per range (the frames returned against the labelled frames, by
 * overlap). Tiny files are in neither: their faces must go to nobody, counted apart.
 */

/** Where `@Name` says a person is: frames of a file, Out exclusive. */
export interface Found {
  person: string;
  file: string;
  inFrame: number;
  outFrame: number;
}

export interface Score {
  recall: number;
  precision: number;
  recallRange: number;
  precisionRange: number;
  /** Per person: files labelled, files found of those, files found wrongly (and which, to look at). */
  perPerson: Record<string, { labelled: number; found: number; wrong: number; recallRange: number; missed: string[]; wrongFiles: string[] }>;
}

/** Frames covered by a set of [in, out) ranges, as a sorted disjoint list. */
function union(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const length = (rs: ReadonlyArray<readonly [number, number]>) => rs.reduce((s, [a, b]) => s + (b - a), 0);

function overlap(a: ReadonlyArray<readonly [number, number]>, b: ReadonlyArray<readonly [number, number]>): number {
  let n = 0;
  for (const [a0, a1] of a) for (const [b0, b1] of b) n += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  return n;
}

const ratio = (n: number, d: number) => (d > 0 ? n / d : 1);

export function score(set: PeopleSet, found: readonly Found[]): Score {
  const scored: LabelledFile[] = set.files.filter((f) => !f.tiny);
  const perPerson: Score['perPerson'] = {};
  let filesLabelled = 0;
  let filesFound = 0;
  let filesRight = 0;
  let framesLabelled = 0;
  let framesFound = 0;
  let framesRight = 0;
  for (const person of set.people) {
    const mine = found.filter((x) => x.person === person);
    let labelledHere = 0;
    let rightHere = 0;
    const missed: string[] = [];
    const wrongFiles: string[] = [];
    let framesLabelledHere = 0;
    let framesRightHere = 0;
    for (const f of scored) {
      const labelled = union(f.ranges.filter((r) => r.person === person).map((r) => [r.inFrame, r.outFrame] as const));
      const got = union(mine.filter((x) => x.file === path.basename(f.file)).map((x) => [x.inFrame, x.outFrame] as const));
      const right = overlap(labelled, got);
      if (labelled.length > 0) labelledHere++;
      if (got.length > 0 && labelled.length > 0) rightHere++;
      if (got.length === 0 && labelled.length > 0) missed.push(path.basename(f.file));
      if (got.length > 0 && labelled.length === 0) wrongFiles.push(path.basename(f.file));
      framesLabelledHere += length(labelled);
      framesRightHere += right;
      framesFound += length(got);
    }
    // Returns in a file outside the scored set (a tiny one) are counted by tiny_assigned, not here.
    filesLabelled += labelledHere;
    filesRight += rightHere;
    filesFound += rightHere + wrongFiles.length;
    framesLabelled += framesLabelledHere;
    framesRight += framesRightHere;
    perPerson[person] = { labelled: labelledHere, found: rightHere, wrong: wrongFiles.length, recallRange: ratio(framesRightHere, framesLabelledHere), missed, wrongFiles };
  }
  return {
    recall: ratio(filesRight, filesLabelled),
    precision: ratio(filesRight, filesFound),
    recallRange: ratio(framesRight, framesLabelled),
    precisionRange: ratio(framesRight, framesFound),
    perPerson,
  };
}
