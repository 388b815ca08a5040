import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { roomToReopen, type DiskRoom } from '../util/disk-space';
import type { DiskWords } from './open-checked';

/**
 * What one look at the disk means for the catalog:
 * - `reopen`: its state no longer matches the disk (an open catalog's disk filled: read-only; room
 *   again for a read-only one, or for one there was no room to start or upgrade): the session opens
 *   it again, and the open decides what it can be;
 * - `say`: still full, and the figures in the editor's words have changed;
 * - `stay`: nothing to do.
 * A damaged catalog waits for the editor whatever the disk does.
 */
export type DiskLook = { kind: 'stay' } | { kind: 'reopen' } | { kind: 'say'; message: string };

export function lookAtDisk(now: { state: CatalogHealth['state']; message: string | null }, room: DiskRoom, words: DiskWords | null): DiskLook {
  switch (now.state) {
    case 'damaged':
      return { kind: 'stay' };
    case 'ok':
      return room.ok ? { kind: 'stay' } : { kind: 'reopen' };
    case 'read_only':
    case 'no_room': {
      const reopen = roomToReopen(room);
      if (reopen.ok) return { kind: 'reopen' };
      const message = words?.(reopen) ?? now.message;
      return message !== null && message !== now.message ? { kind: 'say', message } : { kind: 'stay' };
    }
  }
}
