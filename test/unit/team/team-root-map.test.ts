import { describe, expect, it } from 'vitest';
import { candidateLocations, learnRootMap, rootKeyOf } from '../../../src-main/core/team/rules/root-map';

const at = (rootKey: string, relPath: string) => ({ rootKey, relPath });

describe('paths per seat: share roots learned from the clips two seats both have', () => {
  it('names a share by its label, else by the last folder of where it is mounted', () => {
    expect(rootKeyOf({ label: 'NAS Footage', mountPath: '/Volumes/NAS Footage' })).toBe('nas-footage');
    expect(rootKeyOf({ label: null, mountPath: '\\\\nas\\footage' })).toBe('footage');
    expect(rootKeyOf({ label: null, mountPath: '/mnt/nas/' })).toBe('nas');
    expect(rootKeyOf({ label: null, mountPath: '/' })).toBe('root');
  });

  it('maps a Mac seat\'s /Volumes/NAS layout to a Windows seat\'s share mounted one folder deeper', () => {
    // The Mac seat saw the card under nas/Jobs/Tide; this seat mounted \\nas\footage at Jobs.
    const rules = learnRootMap([
      { theirs: at('nas', 'Jobs/Tide/Day1/A001.mov'), ours: at('footage', 'Tide/Day1/A001.mov') },
      { theirs: at('nas', 'Jobs/Tide/Day2/B004.mov'), ours: at('footage', 'Tide/Day2/B004.mov') },
    ]);
    expect(rules).toEqual([{ theirRoot: 'nas', theirPrefix: ['Jobs'], ourRoot: 'footage', ourPrefix: [], support: 2 }]);
    expect(candidateLocations(at('nas', 'Jobs/Harbour/C010.mov'), rules)).toEqual([at('footage', 'Harbour/C010.mov'), at('nas', 'Jobs/Harbour/C010.mov')]);
    // Outside the learned root: only the same place is tried.
    expect(candidateLocations(at('nas', 'Archive/D001.mov'), rules)).toEqual([at('nas', 'Archive/D001.mov')]);
    expect(candidateLocations(at('other', 'Jobs/Harbour/C010.mov'), rules)).toEqual([at('other', 'Jobs/Harbour/C010.mov')]);
  });

  it('trusts the rule most clips support first, and learns nothing from a renamed copy', () => {
    const rules = learnRootMap([
      { theirs: at('root', 'mnt/a/day/1.mov'), ours: at('root', 'media/b/day/1.mov') },
      { theirs: at('root', 'mnt/a/day/2.mov'), ours: at('root', 'media/b/day/2.mov') },
      // A copy of one clip this seat keeps elsewhere: a weaker rule, tried second.
      { theirs: at('root', 'mnt/a/day/3.mov'), ours: at('root', 'home/me/3.mov') },
      { theirs: at('root', 'mnt/a/x.mov'), ours: at('root', 'mnt/a/renamed.mov') },
    ]);
    expect(rules.map((r) => [r.theirPrefix.join('/'), r.ourPrefix.join('/'), r.support])).toEqual([
      ['mnt/a', 'media/b', 2],
      ['mnt/a/day', 'home/me', 1],
    ]);
    expect(candidateLocations(at('root', 'mnt/a/day/9.mov'), rules).map((l) => l.relPath)).toEqual(['media/b/day/9.mov', 'home/me/9.mov', 'mnt/a/day/9.mov']);
  });

  it('needs the file to be under a rule\'s whole folders, not a name that starts alike', () => {
    const rules = learnRootMap([{ theirs: at('nas', 'Jobs/1.mov'), ours: at('nas', 'Work/1.mov') }]);
    expect(candidateLocations(at('nas', 'Jobs2/5.mov'), rules)).toEqual([at('nas', 'Jobs2/5.mov')]);
  });
});
