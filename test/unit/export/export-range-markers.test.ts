import { describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { buildExportDocument } from '../../../src-main/core/export/build-export-document';
import { createPresenceStore } from '../../../src-main/core/people/presence-store';
import { saveRange } from '../../../src-main/core/marks/marks-repository';
import { createTagResolutionStore } from '../../../src-main/core/search/query/tag-resolution-store';
import { catalogPerTest } from '../../helpers/catalog/catalog-per-test';
import { insertClip, insertVolume } from '../../helpers/catalog/search-catalog';

let db: CatalogDb;
catalogPerTest((opened) => (db = opened));

const rate = { num: 25, den: 1 };
const range = (clipId: number, inFrame: number, outFrame: number, name: string) => saveRange(db, { clipId, inFrame, outFrame, rate, name, note: '', rating: null, keywords: [] });
const userMarkers = (sel: { rangeIds?: number[]; clipIds?: number[] }) =>
  buildExportDocument(db, { tags: createTagResolutionStore(db), presence: createPresenceStore(db, 1) }, { clipIds: sel.clipIds ?? [], rangeIds: sel.rangeIds ?? [], shotIds: [], spans: [] }).doc.items.map((it) => it.markers.filter((m) => m.kind === 'user').map((m) => m.name));

describe("a saved range's export item", () => {
  it('leaves out its own marker only, even when its Out ran past the file and was trimmed, and keeps a twin range\'s', () => {
    const clipId = insertClip(db, { volumeId: insertVolume(db, '/Volumes/CARD'), relPath: 'A001.mov', durationS: 4, fps: 25 });
    // 100 frames in the file; this range was marked to frame 120 (a re-probe shortened the clip).
    const long = range(clipId, 50, 120, 'Past the end');
    const a = range(clipId, 10, 20, 'Take');
    const twin = range(clipId, 10, 20, 'Take');
    expect(userMarkers({ rangeIds: [long.id] })).toEqual([[]]);
    // Two ranges with the same span and name are two markers: each item keeps the other's.
    expect(userMarkers({ rangeIds: [a.id, twin.id] })).toEqual([['Take'], ['Take']]);
    // The whole clip carries every range as a marker.
    expect(userMarkers({ clipIds: [clipId] })).toEqual([['Take', 'Take', 'Past the end']]);
  });
});
