import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { currentTeamCursor, pullTeamChanges } from '../../../../src-main/core/team/server/change-store';
import type { ClipMarkState, KeywordState, RangeState } from '../../../../src-main/core/marks/marks-merge';
import type { Stamp } from '../../../../src-main/core/util/take-field';
import { readTeamMarks, readTeamMarksOfClips, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { serverNow } from '../../../helpers/team/pg-seat-attempts';

/**
 * The server's rule for shared marks (team migration 0014), as two seats with their own logins meet
 * it through the app's upserts (team-marks-store.ts): every stamp is the server's clock; a changed
 * field is taken only over the base the server still holds; an unchanged resend writes nothing.
 */
const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b2';

describeWithPostgres('shared marks on PostgreSQL: server stamps and optimistic concurrency', () => {
  let cluster: PgCluster;
  let a: pg.Client;
  let b: pg.Client;
  const clipIds: number[] = [];
  const read = async (c: pg.Client, clipId: number) => readTeamMarksOfClips(c, [clipId]);

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    a = await cluster.connectSeat(A);
    b = await cluster.connectSeat(B);
    await joinSeat(a, { seatId: A, name: 'Edit A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Edit B', roots: [] });
    for (let i = 0; i < 4; i++) clipIds.push((await adoptTeamClip(a, { fingerprint: (i + 1).toString(16).padStart(64, 'd'), sizeBytes: i, fileName: `M${i}.mov`, seatId: A })).id);
  });
  afterAll(() => closePg([a, b], cluster));

  const newRange = (clipId: number, base: Stamp): RangeState => ({
    id: randomUUID(),
    clipId,
    span: { value: { inFrame: 0, outFrame: 10, rateNum: 25, rateDen: 1 }, stamp: base },
    name: { value: 'one', stamp: base },
    note: { value: '', stamp: base },
    rating: { value: null, stamp: base },
    created: base,
    deleted: null,
  });

  it('a new range, keyword and rating are stamped by the server\'s clock and the writing seat, whatever stamp came with them', async () => {
    const clipId = clipIds[0]!;
    const t0 = await serverNow(a);
    const far: Stamp = { at: Date.parse('9999-01-01T00:00:00Z'), by: B };
    const range = newRange(clipId, far);
    await upsertTeamRange(a, range);
    await upsertTeamKeyword(a, { clipId, rangeId: range.id, norm: 'beach', display: 'Beach', added: { at: 0, by: B }, removed: null });
    await upsertTeamClipMark(a, { clipId, rating: { value: 'favorite', stamp: far } });
    const t1 = await serverNow(a);
    const got = await read(a, clipId);
    const stamps = [got.ranges[0]!.name.stamp, got.ranges[0]!.span.stamp, got.ranges[0]!.created, got.keywords[0]!.added, got.clipMarks[0]!.rating.stamp];
    for (const s of stamps) {
      expect(s.by).toBe(A);
      expect(s.at).toBeGreaterThanOrEqual(t0);
      expect(s.at).toBeLessThanOrEqual(t1);
    }
  });

  it('a change over the stamp the server holds is taken and stamped later; one over an older base is not, and writes nothing', async () => {
    const clipId = clipIds[1]!;
    const range = newRange(clipId, { at: 0, by: A });
    await upsertTeamRange(a, range);
    const [v1] = (await read(a, clipId)).ranges;
    // B saw v1 and renames: taken, stamped after v1's stamp, by B
    await upsertTeamRange(b, { ...v1!, name: { value: 'by B', stamp: v1!.name.stamp } });
    const [v2] = (await read(b, clipId)).ranges;
    expect(v2!.name.value).toBe('by B');
    expect(v2!.name.stamp.by).toBe(B);
    expect(v2!.name.stamp.at).toBeGreaterThan(v1!.name.stamp.at);
    // A, still on v1, renames and changes the note: the name stays B's (changed since A's base), the note (untouched since) lands
    const cursor = await currentTeamCursor(a);
    await upsertTeamRange(a, { ...v1!, name: { value: 'by A, late', stamp: v1!.name.stamp }, note: { value: 'note by A', stamp: v1!.note.stamp } });
    const [v3] = (await read(a, clipId)).ranges;
    expect([v3!.name.value, v3!.name.stamp]).toEqual(['by B', v2!.name.stamp]);
    expect([v3!.note.value, v3!.note.stamp.by]).toEqual(['note by A', A]);
    expect((await pullTeamChanges(a, cursor)).changes.map((c) => [c.table, c.op, c.rowKey])).toEqual([['ranges', 'UPDATE', range.id]]);

    // resending what the server holds (any base) writes no feed row; a stale change of the name alone writes none either
    const quiet = await currentTeamCursor(a);
    await upsertTeamRange(a, v3!);
    await upsertTeamRange(b, { ...v3!, name: { value: 'by A, late', stamp: v1!.name.stamp } });
    expect((await pullTeamChanges(a, quiet)).changes).toEqual([]);
    expect((await read(a, clipId)).ranges).toEqual([v3]);
  });

  it('a delete is a tombstone stamped by the server, and stays whatever later versions say', async () => {
    const clipId = clipIds[2]!;
    const range = newRange(clipId, { at: 0, by: A });
    await upsertTeamRange(a, range);
    const [v1] = (await read(a, clipId)).ranges;
    await upsertTeamRange(b, { ...v1!, deleted: { at: 1, by: A } });
    const [gone] = (await read(a, clipId)).ranges;
    expect(gone!.deleted!.by).toBe(B);
    expect(gone!.deleted!.at).toBeGreaterThanOrEqual(v1!.created.at);
    await upsertTeamRange(a, { ...gone!, deleted: null, name: { value: 'back?', stamp: gone!.name.stamp } });
    const [after] = (await read(a, clipId)).ranges;
    expect(after!.deleted).toEqual(gone!.deleted);
  });

  it('keywords: one field, present or not; a removal over the current state lands, a stale add after it does not', async () => {
    const clipId = clipIds[3]!;
    const kw: KeywordState = { clipId, rangeId: null, norm: 'dusk', display: 'Dusk', added: { at: 0, by: A }, removed: null };
    await upsertTeamKeyword(a, kw);
    // B adds the same keyword from its own side, never having seen A's: one keyword, as A spelt it
    await upsertTeamKeyword(b, { ...kw, display: 'DUSK', added: { at: 0, by: B } });
    const [k1] = (await read(a, clipId)).keywords;
    expect([k1!.display, k1!.added.by, k1!.removed]).toEqual(['Dusk', A, null]);
    await upsertTeamKeyword(b, { ...kw, added: k1!.added, removed: k1!.added });
    const [k2] = (await read(a, clipId)).keywords;
    expect(k2!.removed!.by).toBe(B);
    expect(k2!.removed!.at).toBeGreaterThan(k1!.added.at);
    // A re-adds over its old view (k1's stamp): the removal is newer, so it stays removed
    await upsertTeamKeyword(a, { ...kw, added: k1!.added });
    expect((await read(a, clipId)).keywords).toEqual([k2]);
    // over the removal's stamp the re-add lands, spelt as now
    await upsertTeamKeyword(a, { ...kw, display: 'dusk', added: k2!.removed! });
    const [k3] = (await read(a, clipId)).keywords;
    expect([k3!.display, k3!.added.by, k3!.added.at > k2!.removed!.at]).toEqual(['dusk', A, true]);
  });

  it('a clip\'s rating: over the held stamp it lands, over an older one it does not; the feed names the row once', async () => {
    const clipId = clipIds[0]!;
    const [m1] = (await read(a, clipId)).clipMarks;
    const cursor = await currentTeamCursor(a);
    const mark: ClipMarkState = { clipId, rating: { value: 'reject', stamp: m1!.rating.stamp } };
    await upsertTeamClipMark(b, mark);
    await upsertTeamClipMark(a, { clipId, rating: { value: null, stamp: m1!.rating.stamp } });
    const [m2] = (await readTeamMarks(a, { rangeIds: [], keywordIds: [], clipIds: [clipId] })).clipMarks;
    expect([m2!.rating.value, m2!.rating.stamp.by]).toEqual(['reject', B]);
    expect((await pullTeamChanges(a, cursor)).changes.map((c) => [c.table, c.rowKey])).toEqual([['clip_marks', String(clipId)]]);
  });

  it('a seat\'s own login cannot delete marks (tombstones instead)', async () => {
    await expect(a.query('DELETE FROM team.ranges')).rejects.toMatchObject({ code: '42501' });
    await expect(a.query('DELETE FROM team.keywords')).rejects.toMatchObject({ code: '42501' });
  });
});
