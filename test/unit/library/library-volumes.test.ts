import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderRange, joinOnVolume, relativeOnVolume } from '../../../src-main/core/library/clip-paths';
import { DeviceWalkVolumeResolver, mountPointByDevice } from '../../../src-main/core/library/volumes/generic-volumes';
import { LinuxVolumeResolver } from '../../../src-main/core/library/volumes/linux-volumes';
import { mountFor, parseMountinfo } from '../../../src-main/core/library/volumes/mountinfo';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const MOUNTINFO = [
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '40 27 8:17 / /media/me/CARD\\040A rw,nosuid shared:1 - exfat /dev/sdb1 rw',
  '41 27 8:33 / /media/me/BACKUP rw - ext4 /dev/sdc1 rw',
  '42 27 0:50 / /mnt/nas rw - nfs4 nas.local:/export/footage rw',
  '43 27 0:51 / /tmp rw - tmpfs tmpfs rw',
  '44 27 8:17 /clips /home/me/clips rw - exfat /dev/sdb1 rw',
].join('\n');

describe('mountinfo', () => {
  it('parses entries, unescaping octal sequences in paths', () => {
    const entries = parseMountinfo(MOUNTINFO + '\ngarbage line\n');
    expect(entries).toHaveLength(6);
    expect(entries[1]).toEqual({ devId: '8:17', root: '/', mountPoint: '/media/me/CARD A', fsType: 'exfat', source: '/dev/sdb1' });
  });

  it('picks the longest mount point that contains the path', () => {
    const entries = parseMountinfo(MOUNTINFO);
    expect(mountFor(entries, '/media/me/CARD A/DCIM/a.mp4')!.mountPoint).toBe('/media/me/CARD A');
    expect(mountFor(entries, '/media/me/CARD AB/x.mp4')!.mountPoint).toBe('/');
    expect(mountFor(entries, '/home/me/clips/b.mov')!.root).toBe('/clips');
  });
});

describe('Linux volume identity', () => {
  function fakeSystem(mountinfo: string) {
    const t = tempDir('reelscout-vol-');
    cleanups.push(t.cleanup);
    const mi = path.join(t.dir, 'mountinfo');
    fs.writeFileSync(mi, mountinfo);
    // /dev/disk/by-uuid/<uuid> -> ../../sdb1: the resolver follows the links to the device node.
    const dev = path.join(t.dir, 'dev');
    fs.mkdirSync(path.join(dev, 'disk', 'by-uuid'), { recursive: true });
    fs.mkdirSync(path.join(dev, 'disk', 'by-label'), { recursive: true });
    fs.writeFileSync(path.join(dev, 'sdb1'), '');
    fs.writeFileSync(path.join(dev, 'sdc1'), '');
    fs.symlinkSync('../../sdb1', path.join(dev, 'disk', 'by-uuid', '1234-ABCD'));
    fs.symlinkSync('../../sdc1', path.join(dev, 'disk', 'by-label', 'BACKUP\\x20DRIVE'));
    const rewrite = (text: string) => text.replaceAll('/dev/', `${dev}/`);
    fs.writeFileSync(mi, rewrite(mountinfo));
    return { mi, diskDir: path.join(dev, 'disk'), rewrite };
  }

  it('identifies block devices by UUID, then label; network shares by source; bind mounts by their root', () => {
    const sys = fakeSystem(MOUNTINFO);
    const r = new LinuxVolumeResolver({ mountinfoPath: sys.mi, diskDir: sys.diskDir, cacheMs: 0 });
    expect(r.volumeFor('/media/me/CARD A/DCIM/a.mp4')).toEqual({ key: 'uuid:1234-ABCD', mountPath: '/media/me/CARD A', label: 'CARD A' });
    expect(r.volumeFor('/media/me/BACKUP/x.mov')).toEqual({ key: 'label:BACKUP DRIVE', mountPath: '/media/me/BACKUP', label: 'BACKUP DRIVE' });
    expect(r.volumeFor('/mnt/nas/a.mxf').key).toBe('net:nas.local:/export/footage');
    expect(r.volumeFor('/tmp/x.mp4').key).toBe('tmpfs:/tmp');
    expect(r.volumeFor('/home/me/clips/b.mov').key).toBe('uuid:1234-ABCD#/clips');
    expect(r.volumeFor('/home/me/b.mov').key).toMatch(/^dev:.*vda$/);
    // The root file system without a label of its own is named for what it is, not "/" (Settings' per-drive list).
    expect(r.volumeFor('/home/me/b.mov').label).toBe('System disk');
    expect(r.volumeFor('/tmp/x.mp4').label).toBe('tmp');
  });

  it('finds a card again when it is remounted elsewhere, and reports it offline when unplugged', () => {
    const sys = fakeSystem(MOUNTINFO);
    const r = new LinuxVolumeResolver({ mountinfoPath: sys.mi, diskDir: sys.diskDir, cacheMs: 0 });
    expect(r.locate('uuid:1234-ABCD', '/media/me/CARD A')).toBe('/media/me/CARD A');
    fs.writeFileSync(sys.mi, sys.rewrite(MOUNTINFO.replace('/media/me/CARD\\040A', '/media/me/CARD1').replace(/^44 .*$/m, '')));
    expect(r.locate('uuid:1234-ABCD', '/media/me/CARD A')).toBe('/media/me/CARD1');
    fs.writeFileSync(sys.mi, sys.rewrite(MOUNTINFO.split('\n').filter((l) => !l.includes('8:17')).join('\n')));
    expect(r.locate('uuid:1234-ABCD', '/media/me/CARD A')).toBeNull();
  });

  it('falls back to walking up to the device boundary where there is no mount table', () => {
    const t = tempDir('reelscout-walk-');
    cleanups.push(t.cleanup);
    const mp = mountPointByDevice(t.dir);
    expect(t.dir.startsWith(mp)).toBe(true);
    const r = new DeviceWalkVolumeResolver();
    const v = r.volumeFor(t.dir);
    expect(v.key).toBe(`mount:${mp}`);
    expect(r.locate(v.key)).toBe(mp);
    expect(r.locate('mount:/definitely/not/mounted')).toBeNull();
  });
});

describe('paths on a volume', () => {
  it('converts between absolute paths and volume-relative ones', () => {
    expect(relativeOnVolume('/media/card', '/media/card/DCIM/a b.mp4')).toBe('DCIM/a b.mp4');
    expect(relativeOnVolume('/media/card', '/media/cardigan/x.mp4')).toBeNull();
    expect(relativeOnVolume('/', '/x/y.mp4')).toBe('x/y.mp4');
    expect(joinOnVolume('/media/card', 'DCIM/a b.mp4')).toBe('/media/card/DCIM/a b.mp4');
  });

  it('bounds a folder so that sibling folders sharing a prefix are excluded', () => {
    const r = folderRange('DCIM')!;
    const inside = (p: string) => p >= r.lo && p < r.hi;
    expect(inside('DCIM/a.mp4')).toBe(true);
    expect(inside('DCIM/sub/ü.mp4')).toBe(true);
    expect(inside('DCIM2/a.mp4')).toBe(false);
    expect(inside('DCIM-old/a.mp4')).toBe(false);
    expect(inside('DCIM')).toBe(false);
    expect(folderRange('')).toBeNull();
  });
});
