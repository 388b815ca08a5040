import { afterAll, describe, expect, it } from 'vitest';
import { addKeywords, clipMarks, saveRange } from '../../../src-main/core/marks/marks-repository';
import { getRange, rangesById, rangesForClips } from '../../../src-main/core/marks/range-store';
import { tempDir } from '../../helpers/paths';
import { insertClip, insertVolume, openTestCatalog } from '../../helpers/catalog/search-catalog';

describe("range-store's reads of ranges", () => {
  const tmp = tempDir('rs-marks-ranges-');
  afterAll(() => tmp.cleanup());

  it("give each range its own keywords, case aside in alphabetical order, apart from its clip's and other ranges'", () => {
    const db = openTestCatalog(tmp.dir);
    const vol = insertVolume(db, '/media/m');
    const [a, b] = [insertClip(db, { volumeId: vol, relPath: 'A001.mov' }), insertClip(db, { volumeId: vol, relPath: 'B001.mov' })];
    const rate = { num: 25, den: 1 };
    const range = (clipId: number, inFrame: number, name: string, keywords: string[]) =>
      saveRange(db, { clipId, inFrame, outFrame: inFrame + 25, rate, name, note: '', rating: null, keywords });
    const r1 = range(a, 0, 'one', ['beach', 'Alpha']);
    const r2 = range(a, 50, 'two', []);
    const r3 = range(b, 0, 'three', ['beach']);
    addKeywords(db, { clipIds: [a, b], rangeIds: [] }, ['day 1']);
    addKeywords(db, { clipIds: [], rangeIds: [r2.id] }, ['Zulu', 'echo']);

    const brief = (list: { name: string; keywords: string[] }[]) => list.map((r) => [r.name, r.keywords]);
    expect(brief(rangesForClips(db, [a, b]))).toEqual([
      ['one', ['Alpha', 'beach']],
      ['two', ['echo', 'Zulu']],
      ['three', ['beach']],
    ]);
    expect(brief(rangesById(db, [r3.id, r1.id]))).toEqual([
      ['one', ['Alpha', 'beach']],
      ['three', ['beach']],
    ]);
    expect(getRange(db, r2.id).keywords).toEqual(['echo', 'Zulu']);
    const m = clipMarks(db, a);
    expect(m.keywords).toEqual(['day 1']);
    expect(brief(m.ranges)).toEqual([
      ['one', ['Alpha', 'beach']],
      ['two', ['echo', 'Zulu']],
    ]);
    expect(rangesById(db, [])).toEqual([]);
    db.close();
  });
});
