export interface MountEntry {
  /** "major:minor" of the mounted filesystem: not stable across reconnects, used only to match. */
  devId: string;
  /** Folder of the filesystem that is mounted here ('/' unless this is a bind mount). */
  root: string;
  mountPoint: string;
  fsType: string;
  source: string;
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescapeOctal(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Parses /proc/self/mountinfo (proc(5)); malformed lines are skipped. */
export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const dash = line.indexOf(' - ');
    if (dash < 0) continue;
    const left = line.slice(0, dash).split(' ');
    const right = line.slice(dash + 3).split(' ');
    if (left.length < 6 || right.length < 2) continue;
    out.push({
      devId: left[2]!,
      root: unescapeOctal(left[3]!),
      mountPoint: unescapeOctal(left[4]!),
      fsType: right[0]!,
      source: unescapeOctal(right[1]!),
    });
  }
  return out;
}

/** The entry whose mount point is the longest prefix of the path (later mounts shadow earlier ones). */
export function mountFor(entries: readonly MountEntry[], realPath: string): MountEntry | null {
  let best: MountEntry | null = null;
  for (const e of entries) {
    const mp = e.mountPoint;
    const inside = mp === '/' || realPath === mp || realPath.startsWith(mp.endsWith('/') ? mp : mp + '/');
    if (!inside) continue;
    if (!best || mp.length >= best.mountPoint.length) best = e;
  }
  return best;
}
