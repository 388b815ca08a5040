/**
 * The ETA the editor sees, as a pure transition: (what was shown, a new reading) -> what to show.
 * The model's raw estimate moves with every finished job (a long clip finishing, a slow upload);
 * shown as it is, it jumped from 26 min to 25 h between two refreshes. So the shown ETA counts
 * down with the clock and follows the raw estimate by at most a factor of STEP per refresh, unless
 * something the editor can name changed the work (footage added, the network paused or resumed):
 * then it takes the new estimate at once and says why.
 */

/** Largest change of the shown ETA between two refreshes without a named cause. */
export const ETA_STEP = 1.5;
/** How long a cause stays beside the ETA. */
export const ETA_NOTE_MS = 60_000;

export interface EtaReading {
  /** The model's estimate now; null while unknown. */
  rawMs: number | null;
  now: number;
  /** Clips with indexing work left. */
  activeClips: number;
  networkOpen: boolean;
}

export interface ShownEta {
  ms: number | null;
  at: number;
  activeClips: number;
  networkOpen: boolean;
  /** Why the ETA last changed by more than the clock: shown beside it for a while. */
  note: string | null;
  noteAt: number;
}

function causeOf(prev: ShownEta, r: EtaReading): string | null {
  if (r.activeClips > prev.activeClips) {
    const n = r.activeClips - prev.activeClips;
    // What changed, not what is left: "21 more to index" read as a count beside "6 / 21 indexed".
    return `${n} clip${n === 1 ? '' : 's'} added`;
  }
  if (prev.networkOpen && !r.networkOpen) return 'uploads on hold';
  if (!prev.networkOpen && r.networkOpen) return 'uploads resumed';
  return null;
}

export function nextShownEta(prev: ShownEta | null, r: EtaReading): ShownEta {
  const base = { at: r.now, activeClips: r.activeClips, networkOpen: r.networkOpen };
  const cause = prev ? causeOf(prev, r) : null;
  // A cause is named even when the estimate is unknown (a pause holds the network stages).
  const note = cause
    ? { note: cause, noteAt: r.now }
    : prev?.note && r.now - prev.noteAt < ETA_NOTE_MS
      ? { note: prev.note, noteAt: prev.noteAt }
      : { note: null, noteAt: 0 };
  if (r.rawMs === null) return { ...base, ms: null, ...note };
  if (!prev || prev.ms === null || cause) return { ...base, ms: r.rawMs, ...note };
  // Where the clock alone would have brought the last shown value.
  const expected = Math.max(0, prev.ms - Math.max(0, r.now - prev.at));
  const low = expected / ETA_STEP;
  const high = Math.max(expected * ETA_STEP, expected + 1000);
  return { ...base, ms: Math.round(Math.min(high, Math.max(low, r.rawMs))), ...note };
}
