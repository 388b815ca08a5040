/**
 * Paths per seat (issue 28): the team knows where a clip lives as a share key and a path under it
 * (team.clip_locations); each seat mounts the share its own way (/Volumes/NAS, \\nas\footage,
 * /mnt/nas) and names it by its own volume. No seat is asked to type a mapping: it is learned from
 * the clips two seats both have. Seat A saw a clip at (nas, `Jobs/Tide/Day1/A001.mov`), this seat at
 * (footage, `Tide/Day1/A001.mov`): the common tail `Tide/Day1/A001.mov` says that A's `Jobs/` under
 * `nas` is this seat's root of `footage`, and any other clip A saw under `nas/Jobs/` is looked for
 * there. Pure functions, tested directly (test/unit/team/team-root-map.test.ts).
 */

/** A clip's place on a share as the team stores it: a share key and a '/'-separated path under it. */
export interface ShareLocation {
  rootKey: string;
  relPath: string;
}

/** One clip both seats have: where the other seat saw it, and where this seat did. */
export interface LocationPair {
  theirs: ShareLocation;
  ours: ShareLocation;
}

/** `theirRoot/theirPrefix...` on the other seat is `ourRoot/ourPrefix...` here. */
export interface RootRule {
  theirRoot: string;
  theirPrefix: string[];
  ourRoot: string;
  ourPrefix: string[];
  /** How many clips both seats have say so. */
  support: number;
}

/** The share key a seat records for a volume: its label, or the last folder of where it is mounted. */
export function rootKeyOf(volume: { label: string | null; mountPath: string }): string {
  const name = volume.label ?? volume.mountPath.split(/[\\/]/).filter(Boolean).at(-1) ?? 'root';
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 64) || 'root'
  );
}

const parts = (rel: string) => rel.split('/').filter(Boolean);

/**
 * The rules the pairs support: each pair's paths share a tail (at least the file's name); what comes
 * before it on each side is one share's root as the two seats see it. Strongest rule first.
 */
export function learnRootMap(pairs: readonly LocationPair[]): RootRule[] {
  const rules = new Map<string, RootRule>();
  for (const { theirs, ours } of pairs) {
    const t = parts(theirs.relPath);
    const o = parts(ours.relPath);
    let tail = 0;
    while (tail < t.length && tail < o.length && t[t.length - 1 - tail] === o[o.length - 1 - tail]) tail++;
    // A renamed copy says nothing about where the share is mounted.
    if (tail === 0) continue;
    const rule = { theirRoot: theirs.rootKey, theirPrefix: t.slice(0, t.length - tail), ourRoot: ours.rootKey, ourPrefix: o.slice(0, o.length - tail) };
    const key = JSON.stringify(rule);
    const known = rules.get(key);
    if (known) known.support++;
    else rules.set(key, { ...rule, support: 1 });
  }
  return [...rules.values()].sort((a, b) => b.support - a.support || b.theirPrefix.length - a.theirPrefix.length);
}

/**
 * Where a clip another seat saw at `at` may be on this seat, most likely first: through each rule
 * whose root and prefix it is under, then at the same place (seats that mount the share alike).
 */
export function candidateLocations(at: ShareLocation, rules: readonly RootRule[]): ShareLocation[] {
  const rel = parts(at.relPath);
  const out: ShareLocation[] = [];
  const add = (l: ShareLocation) => {
    if (!out.some((o) => o.rootKey === l.rootKey && o.relPath === l.relPath)) out.push(l);
  };
  for (const r of rules) {
    if (r.theirRoot !== at.rootKey || r.theirPrefix.length > rel.length) continue;
    if (!r.theirPrefix.every((p, i) => rel[i] === p)) continue;
    add({ rootKey: r.ourRoot, relPath: [...r.ourPrefix, ...rel.slice(r.theirPrefix.length)].join('/') });
  }
  add({ rootKey: at.rootKey, relPath: rel.join('/') });
  return out;
}
