import type { Volume } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { VolumeInfo, VolumeResolver } from './volumes/volume-resolver';

/**
 * The owner of `volumes`: the drives (and the one pseudo-volume of addresses) clips live on, as
 * last seen. Whether a drive is connected is read from here; a clip's own row is never changed by it.
 */

/** The volume clips that live at a URL hang off (library/remote-clips.ts). */
export const URL_VOLUME_KEY = 'url';

/**
 * A share of the team's that this seat has not found on its drives (library/team-share-entries.ts):
 * a volume never connected here, its clips offline entries. The mount path is no place on this
 * machine ('team:' + the share's name), so no path on a drive is ever read as being on it.
 */
const TEAM_SHARE_KEY = 'team-share:';

export function isTeamShareKey(volumeKey: string): boolean {
  return volumeKey.startsWith(TEAM_SHARE_KEY);
}

/** The offline volume standing for the team's share `rootKey` (as the seats that have it name it); returns its id. */
export function teamShareVolume(db: CatalogDb, rootKey: string, at = Date.now()): number {
  const volume = statement(
    db,
    `INSERT INTO volumes (volume_key, mount_path, label, online, last_seen_at) VALUES (?, ?, ?, 0, ?)
     ON CONFLICT (volume_key) DO UPDATE SET label = excluded.label
     RETURNING id`,
  ).get(TEAM_SHARE_KEY + rootKey, `team:${rootKey}`, rootKey, at) as { id: number };
  return volume.id;
}

/** Records a volume seen just now (online, at its current mount path) and returns its id. */
export function upsertVolume(db: CatalogDb, v: VolumeInfo, at = Date.now()): number {
  const volume = statement(
    db,
    `INSERT INTO volumes (volume_key, mount_path, label, online, last_seen_at) VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (volume_key) DO UPDATE SET mount_path = excluded.mount_path, label = excluded.label, online = 1,
       last_seen_at = excluded.last_seen_at
     RETURNING id`,
  ).get(v.key, v.mountPath, v.label, at) as { id: number };
  return volume.id;
}

/**
 * Checks every known volume against what is mounted now: a disconnected one goes offline (its clips
 * are kept and shown offline), a reconnected one comes back, possibly at a new mount path.
 * Returns the ids whose online state or mount path changed.
 */
export function refreshVolumes(db: CatalogDb, resolver: VolumeResolver): number[] {
  resolver.refresh();
  // Polled every few seconds: compiled once per connection.
  const known = statement(db, 'SELECT id, volume_key, mount_path, online FROM volumes').all() as {
    id: number;
    volume_key: string;
    mount_path: string;
    online: number;
  }[];
  const changed: number[] = [];
  const updates: { id: number; online: number; mount: string }[] = [];
  for (const r of known) {
    if (r.volume_key === URL_VOLUME_KEY || isTeamShareKey(r.volume_key)) continue; // clips at URLs, a team share never found here: no drive to look for
    const where = resolver.locate(r.volume_key, r.mount_path);
    const online = where !== null ? 1 : 0;
    const mount = where ?? r.mount_path;
    if (online !== r.online || mount !== r.mount_path) updates.push({ id: r.id, online, mount });
  }
  // Polled every few seconds: write only when a drive came, went or moved.
  if (updates.length > 0) {
    const setPresence = statement(db, 'UPDATE volumes SET online = ?, mount_path = ?, last_seen_at = CASE WHEN ? THEN ? ELSE last_seen_at END WHERE id = ?');
    const at = Date.now();
    db.transaction(() => {
      for (const u of updates) {
        setPresence.run(u.online, u.mount, u.online, at, u.id);
        changed.push(u.id);
      }
    })();
  }
  return changed;
}

export function listVolumes(db: CatalogDb): Volume[] {
  const withCounts = statement(
    db,
    `SELECT v.id, v.volume_key, v.label, v.mount_path, v.online, v.last_seen_at, COUNT(c.id) AS clips
     FROM volumes v LEFT JOIN clips c ON c.volume_id = v.id GROUP BY v.id ORDER BY v.label, v.id`,
  ).all() as { id: number; volume_key: string; label: string | null; mount_path: string; online: number; last_seen_at: number; clips: number }[];
  return withCounts.map((r) => ({
    id: r.id,
    key: r.volume_key,
    label: r.label ?? r.mount_path,
    mountPath: r.mount_path,
    online: r.online === 1,
    clipCount: r.clips,
    lastSeenAt: r.last_seen_at,
  }));
}

/** The drives connected now, as recorded (label as the drive gives it, or null): where files are looked for. */
export function connectedDrives(db: CatalogDb): { id: number; mountPath: string; label: string | null }[] {
  return statement(db, 'SELECT id, mount_path AS mountPath, label FROM volumes WHERE online = 1 AND volume_key <> ? ORDER BY id').all(URL_VOLUME_KEY) as {
    id: number;
    mountPath: string;
    label: string | null;
  }[];
}
