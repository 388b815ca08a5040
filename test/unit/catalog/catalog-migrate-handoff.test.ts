import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { secondsToFrame } from '../../../src-shared/timecode';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** What showinfo's pts_time printed: six significant digits. */
const sixDigits = (t: number) => Number(t.toPrecision(6));

describe('migration 0021: shot times on their frames', () => {
  it('moves the rounded times of a constant-rate clip onto its frames, and its segments with them', () => {
    const { file, old } = catalogAtVersion(20, cleanups);
    const now = Date.now();
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, ?)`).run(now);
    const clip = old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, vfr, duration_s, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'ready', ?, ?, 20, ?, ?)`,
    );
    clip.run(1, 'a.mp4', 'a.mp4', 24, 0, now, now);
    clip.run(2, 'b.mp4', 'b.mp4', 30000 / 1001, 0, now, now);
    clip.run(3, 'v.mp4', 'v.mp4', 27.3, 1, now, now); // variable rate: times are its truth, left alone
    const shot = old.prepare(
      'INSERT INTO shots (id, clip_id, idx, start_s, end_s, start_frame, end_frame, transition_kind, transition_start_s, transition_end_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // a.mp4 at 24: frame 221 printed as 9.20833 (x 24 = 220.99992: frame 220 by any floor).
    shot.run(10, 1, 0, 0, sixDigits(221 / 24), 0, 221, null, null, null);
    shot.run(11, 1, 1, sixDigits(221 / 24), 20.055, 221, 480, 'dissolve', sixDigits(215 / 24), sixDigits(227 / 24));
    // b.mp4 at 29.97: frame 9001 (300.333 s).
    shot.run(20, 2, 0, 0, sixDigits((9001 * 1001) / 30000), 0, 9001, null, null, null);
    shot.run(21, 2, 1, sixDigits((9001 * 1001) / 30000), 400, 9001, 11988, 'cut', null, null);
    shot.run(30, 3, 0, 1.23456, 5, 30, 120, null, null, null);
    const seg = old.prepare("INSERT INTO segments (id, clip_id, shot_id, chunk_idx, start_s, end_s, profile_id) VALUES (?, ?, ?, ?, ?, ?, 'p')");
    seg.run(100, 1, 11, 0, sixDigits(221 / 24), 12.5);
    seg.run(101, 1, 11, 1, 12.5, 20.055);
    seg.run(102, 3, 30, 0, 1.23456, 5);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const s = (id: number) => db.prepare('SELECT start_s, end_s, transition_start_s, transition_end_s FROM shots WHERE id = ?').get(id) as Record<string, number | null>;
    const g = (id: number) => db.prepare('SELECT start_s, end_s FROM segments WHERE id = ?').get(id) as { start_s: number; end_s: number };
    expect(secondsToFrame(s(11).start_s!, { num: 24, den: 1 })).toBe(221);
    expect(s(11).start_s).toBe(221 / 24);
    expect(s(10).end_s).toBe(221 / 24);
    // The last shot ends at the container's duration, more than half a frame from any frame: kept.
    expect(s(11).end_s).toBe(20.055);
    expect([s(11).transition_start_s, s(11).transition_end_s]).toEqual([215 / 24, 227 / 24]);
    expect(secondsToFrame(s(21).start_s!, { num: 30000, den: 1001 })).toBe(9001);
    expect(g(100)).toEqual({ start_s: 221 / 24, end_s: 12.5 });
    expect(g(101)).toEqual({ start_s: 12.5, end_s: 20.055 });
    expect(s(30).start_s).toBe(1.23456);
    expect(g(102).start_s).toBe(1.23456);
  });
});

describe('migration 0022: audio layout, audio rate and reel name as columns', () => {
  it('fills them from the probe answer a catalogued clip keeps', () => {
    const { file, old } = catalogAtVersion(21, cleanups);
    const now = Date.now();
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, ?)`).run(now);
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, probe_json, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'ready', ?, ?, ?)`);
    const probe = {
      streams: [
        { codec_type: 'video', tags: { timecode: '01:00:00:00' } },
        { codec_type: 'audio', channels: 1, sample_rate: '48000' },
        { codec_type: 'audio', channels: 1, sample_rate: '48000' },
        { codec_type: 'data', tags: { reel_name: 'A001C003' } },
      ],
      format: {},
    };
    clip.run(1, 'a.mov', 'a.mov', JSON.stringify(probe), now, now);
    clip.run(2, 'b.mxf', 'b.mxf', JSON.stringify({ streams: [{ codec_type: 'video' }], format: { tags: { tape_name: 'TAPE 7' } } }), now, now);
    clip.run(3, 'c.mp4', 'c.mp4', null, now, now);
    clip.run(4, 'd.mp4', 'd.mp4', 'not json', now, now);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const row = (id: number) => db.prepare('SELECT audio_rate, audio_layout, reel_name FROM clips WHERE id = ?').get(id);
    expect(row(1)).toEqual({ audio_rate: 48000, audio_layout: '[1,1]', reel_name: 'A001C003' });
    expect(row(2)).toEqual({ audio_rate: null, audio_layout: '[]', reel_name: 'TAPE 7' });
    expect(row(3)).toEqual({ audio_rate: null, audio_layout: null, reel_name: null });
    expect(row(4)).toEqual({ audio_rate: null, audio_layout: null, reel_name: null });
  });
});

describe('migration 0041: the sample aspect ratio as a column', () => {
  it('fills it from the probe answer a catalogued clip keeps, as displayed, so nothing parses probe_json after the probe', () => {
    const { file, old } = catalogAtVersion(35, cleanups);
    const now = Date.now();
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, ?)`).run(now);
    const clip = old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, rotation, probe_json, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'ready', ?, ?, ?, ?)`,
    );
    const probe = (sar?: string) => JSON.stringify({ streams: [{ codec_type: 'audio' }, { codec_type: 'video', ...(sar ? { sample_aspect_ratio: sar } : {}) }], format: {} });
    clip.run(1, 'dv.mov', 'dv.mov', 0, probe('16:15'), now, now);
    clip.run(2, 'dv turned.mov', 'dv turned.mov', 90, probe('16:15'), now, now);
    clip.run(3, 'square.mp4', 'square.mp4', 0, probe('1:1'), now, now);
    clip.run(4, 'unknown.mp4', 'unknown.mp4', 0, probe('0:1'), now, now);
    clip.run(5, 'no sar.mkv', 'no sar.mkv', 0, probe(), now, now);
    clip.run(6, 'sound.wav', 'sound.wav', null, JSON.stringify({ streams: [{ codec_type: 'audio' }] }), now, now);
    clip.run(7, 'pending.mp4', 'pending.mp4', null, null, now, now);
    clip.run(8, 'garbled.mp4', 'garbled.mp4', 0, 'not json', now, now);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const sar = new Map((db.prepare('SELECT id, sar FROM clips').all() as { id: number; sar: number | null }[]).map((r) => [r.id, r.sar]));
    expect(sar.get(1)).toBeCloseTo(16 / 15, 9);
    expect(sar.get(2)).toBeCloseTo(15 / 16, 9);
    expect([3, 4, 5].map((id) => sar.get(id))).toEqual([1, 1, 1]);
    expect([6, 7, 8].map((id) => sar.get(id))).toEqual([null, null, null]);
  });
});
