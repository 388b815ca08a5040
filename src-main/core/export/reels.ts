import { asciiLine } from './exchange-text';
import type { ExportItem } from './export-model';

/** CMX3600 reel: up to 8 of A-Z, 0-9 and "_". */
const REEL_LENGTH = 8;

/** A name as reel characters: 7-bit (é -> E), upper case, runs of anything else as one "_", cut to 8. */
export function reelChars(name: string): string {
  return asciiLine(name)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, REEL_LENGTH)
    .replace(/_+$/, '');
}

/**
 * The reel of every file of an export, by path: the reel or tape name the file carries when it
 * has one (several clips of one camera roll share it, as they should: their timecodes tell them
 * apart); otherwise one made from the file name, unique in the export so a conform by reel and
 * timecode cannot take one file for another ("Interview take 1" and "Interview take 2" share
 * "INTERVIE": they become INTERV01 and INTERV02). Deterministic: the same selection gives the
 * same reels, numbered in the order the files first appear.
 */
export function assignReels(items: readonly Pick<ExportItem, 'path' | 'fileName' | 'reel'>[]): Map<string, string> {
  const files: { path: string; fileName: string; reel: string | null }[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.path)) continue;
    seen.add(it.path);
    files.push(it);
  }
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const f of files) {
    const own = f.reel ? reelChars(f.reel) : '';
    if (own) {
      out.set(f.path, own);
      taken.add(own);
    }
  }
  const made = files.filter((f) => !out.has(f.path)).map((f) => ({ path: f.path, base: reelChars(f.fileName.replace(/\.[^.]+$/, '')) || 'AX' }));
  const count = new Map<string, number>();
  for (const m of made) count.set(m.base, (count.get(m.base) ?? 0) + 1);
  for (const m of made) {
    if (count.get(m.base) === 1 && !taken.has(m.base)) {
      out.set(m.path, m.base);
      taken.add(m.base);
      continue;
    }
    // Shared: the base cut to leave room for a number, the first number not taken.
    for (let n = 1; ; n++) {
      const suffix = String(n).padStart(2, '0');
      const reel = `${m.base.slice(0, REEL_LENGTH - suffix.length)}${suffix}`;
      if (taken.has(reel)) continue;
      out.set(m.path, reel);
      taken.add(reel);
      break;
    }
  }
  return out;
}
