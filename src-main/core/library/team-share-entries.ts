import type { CatalogDb } from '../catalog/open-catalog';
import { applyClipEvent, catalogueClip } from './clips-repository';
import { clipAtPath } from './clip-place-store';
import { teamShareVolume } from './volume-store';

/**
 * Offline entries (issue 40 item 4): a clip of the team's whose file this seat cannot reach (a share
 * it has not mounted, a place refused by the confinement checks) is listed all the same, as a clip of
 * an unplugged drive is: it hangs off an offline volume named after the share (volume-store.ts
 * `teamShareVolume`), at the path the seat that has it recorded, with the team's results copied
 * (team/syncs/clip-sharing.ts `placeAway`), so poster, tags, search and marks work. It is footage (status
 * `probed`, its duration the team's shots') never probed here (`probed_at` NULL): when the file turns
 * up (imported by the editor anywhere, which is the Relink, or found by the arrivals on a share learned
 * later), the importer moves the entry onto it (import-library.ts) and the pipeline probes it, keeping
 * everything copied.
 */

export interface TeamShareEntry {
  /** The share as the seats that have the clip name it (team.clip_locations.root_key). */
  rootKey: string;
  /** Its '/'-separated path down the share, checked by team/rules/shared-path.ts (or the file's name alone). */
  relPath: string;
  fileName: string;
  sizeBytes: number;
  fingerprint: string;
  /** Where the team's shots end (no probe of the file here). */
  durationS: number | null;
}

/**
 * The entry of the clip at that place (made now, or found again); returns the clip's id, or null when
 * the place holds the entry of other content (a file replaced on the share: the team has two clips
 * there, and only the first is listed).
 */
export function catalogueTeamShareEntry(db: CatalogDb, e: TeamShareEntry, at = Date.now()): number | null {
  return db.transaction(() => {
    const volumeId = teamShareVolume(db, e.rootKey, at);
    const known = clipAtPath(db, volumeId, e.relPath);
    if (known) return known.fingerprint === e.fingerprint ? known.id : null;
    const id = catalogueClip(db, { volumeId, relPath: e.relPath, fileName: e.fileName, sizeBytes: e.sizeBytes, mtimeMs: at, fingerprint: e.fingerprint }, at);
    // Footage as the team read it: the team's shots and pictures are stored on it as on a probed clip.
    applyClipEvent(db, id, { type: 'probed', verdict: 'probed' }, { duration_s: e.durationS });
    return id;
  })();
}

/** What playback, export and every hand-over of an offline entry say: where the file lives, and the way to get it here. */
export function teamShareWhy(fileName: string, share: string, relPath: string): string {
  return `${fileName} is on the team's share "${share}" at ${relPath}, not on this workstation: Relink it by importing your copy of it (from any folder), or mount that share`;
}

/** What the Library's card says of an offline entry. */
export function teamShareNote(share: string, relPath: string): string {
  return `on the team's share "${share}" at ${relPath}, not on this workstation: import your copy to relink it`;
}
