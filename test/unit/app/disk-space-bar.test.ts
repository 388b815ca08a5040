import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { barAfterFullDisk, createDiskGuard } from '../../../src-main/core/util/disk-space';

const MB = 1e6;

describe('the room needed after a write met a full disk', () => {
  it('rises above what is free when the figures said there was room, and only then', () => {
    expect(barAfterFullDisk(67 * MB, 67 * MB, 105 * MB)).toBe(172 * MB);
    expect(barAfterFullDisk(67 * MB, 67 * MB, 3 * MB)).toBe(67 * MB);
    expect(barAfterFullDisk(172 * MB, 67 * MB, 150 * MB)).toBe(172 * MB);
    // No reserve is no check before work: it stays none.
    expect(barAfterFullDisk(0, 0, 105 * MB)).toBe(0);
  });

  it('never says more is free than it needs while it holds work for want of room', () => {
    const free = { bytes: 105 * MB };
    const guard = createDiskGuard('/data', 67 * MB, () => free.bytes);
    expect(guard.room().ok).toBe(true);
    // ENOSPC met by a write (an ffmpeg temp file, gone again) while statfs says 105 MB are free.
    const said = guard.explain(new AppError('disk_full', 'ENOSPC: no space left on device, write'));
    expect(said.message).toBe('The disk holding /data has 105 MB free; Reelscout needs at least 172 MB free there to save its work.');
    expect(said.message).not.toMatch(/ENOSPC/);
    expect(guard.room()).toMatchObject({ ok: false, freeBytes: 105 * MB, neededBytes: 172 * MB });
    // Room that fits, read a second later (the guard reads the disk at most once a second).
    free.bytes = 200 * MB;
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 1500);
    expect(guard.room()).toMatchObject({ ok: true, neededBytes: 172 * MB });
    vi.restoreAllMocks();
  });
});
