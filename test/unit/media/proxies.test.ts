import { describe, expect, it } from 'vitest';
import { mediaPath, parseMediaPath } from '../../../src-shared/media-ref';
import { buildDecodeArgs } from '../../../src-main/core/media/clip-decoder';
import { proxyAudio, proxyBranch, proxyGop } from '../../../src-main/core/media/proxy-branch';
import { nativePlayback } from '../../../src-main/core/proxies/native-playback';
import { playbackSource, type PlaybackInputs } from '../../../src-main/core/proxies/playback-source';
import { isDetachableMount, PROXY_RESERVE_BYTES, proxyBytesFor, roomForProxy, wantsProxy } from '../../../src-main/core/proxies/proxy-policy';
import { proxyRelPath } from '../../../src-main/core/proxies/proxy-files';
import { proxyPicture } from '../../../src-main/core/proxies/proxy-picture';
import { rangeStreamArgs, rangeStreamSeekS, windowPictures } from '../../../src-main/core/proxies/range-stream-args';
import { vfrPhoneTimes } from '../../helpers/footage/playback-footage';
import { isStreamWindow, streamHeadAt, streamHeadFrames, streamWindowAfter, streamWindowBefore, streamWindowFor } from '../../../src-shared/stream-window';

const facts = (container: string | null, videoCodec: string | null, pixFmt: string | null, audioCodec: string | null = 'aac') => ({ container, videoCodec, pixFmt, audioCodec });

describe('what the player decodes from the original', () => {
  it('plays 8-bit 4:2:0 H.264, VP9 and AV1 in MP4, MOV and WebM', () => {
    expect(nativePlayback(facts('mp4', 'h264', 'yuv420p'))).toEqual({ ok: true });
    expect(nativePlayback(facts('mov', 'h264', 'yuvj420p', 'pcm_s16le'))).toEqual({ ok: true });
    expect(nativePlayback(facts('webm', 'vp9', 'yuv420p', 'opus'))).toEqual({ ok: true });
    expect(nativePlayback(facts('mp4', 'av1', 'yuv420p10le', null))).toEqual({ ok: true });
  });
  it('refuses the codecs and containers editors shoot, saying which', () => {
    const why = (f: ReturnType<typeof facts>) => {
      const r = nativePlayback(f);
      return r.ok ? 'plays' : r.why;
    };
    expect(why(facts('mov', 'prores', 'yuv422p10le', 'pcm_s24le'))).toMatch(/ProRes/);
    expect(why(facts('mxf', 'dnxhd', 'yuv422p'))).toMatch(/MXF/);
    expect(why(facts('mov', 'dnxhd', 'yuv422p'))).toMatch(/DNxHD\/DNxHR/);
    expect(why(facts('mov', 'h264', 'yuv422p10le'))).toMatch(/H\.264 in yuv422p10le/);
    expect(why(facts('mp4', 'hevc', 'yuv420p'))).toMatch(/HEVC/);
    expect(why(facts('avi', 'h264', 'yuv420p'))).toMatch(/AVI/);
    expect(why(facts('mov', 'mjpeg', 'yuvj422p'))).toMatch(/Motion JPEG/);
    expect(why(facts('mov', 'h264', 'yuv420p', 'ac3'))).toMatch(/ac3 sound/);
    expect(why(facts(null, null, null, null))).not.toBe('plays');
  });
});

describe('when a clip gets a proxy', () => {
  it('needed: for what the player cannot decode, and for footage on a drive that can leave', () => {
    expect(wantsProxy('needed', facts('mov', 'prores', 'yuv422p10le'), false)).toBe(true);
    expect(wantsProxy('needed', facts('mp4', 'h264', 'yuv420p'), false)).toBe(false);
    expect(wantsProxy('needed', facts('mp4', 'h264', 'yuv420p'), true)).toBe(true);
    expect(wantsProxy('always', facts('mp4', 'h264', 'yuv420p'), false)).toBe(true);
    expect(wantsProxy('never', facts('mov', 'prores', 'yuv422p10le'), true)).toBe(false);
  });
  it('a drive that can leave: any but the system disk', () => {
    expect(isDetachableMount('/Volumes/CARD_A', 'darwin')).toBe(true);
    expect(isDetachableMount('/', 'darwin')).toBe(false);
    expect(isDetachableMount('/media/ed/CARD', 'linux')).toBe(true);
    expect(isDetachableMount('/', 'linux')).toBe(false);
    expect(isDetachableMount('C:\\', 'win32')).toBe(false);
    expect(isDetachableMount('E:\\', 'win32')).toBe(true);
    expect(isDetachableMount('\\\\nas\\footage', 'win32')).toBe(true);
  });
});

describe('what the viewer plays', () => {
  const base: PlaybackInputs = { native: { ok: true }, reachable: true, unreachableWhy: null, remote: false, proxyFrames: null, proxyPending: false, probed: true };
  it('the original whenever it plays and is there, a proxy or not', () => {
    expect(playbackSource({ ...base, proxyFrames: 120 })).toMatchObject({ source: 'original', offline: false, proxy: 'ready', why: null });
  });
  it('the proxy when the codec needs it or the drive is away, saying why', () => {
    expect(playbackSource({ ...base, native: { ok: false, why: 'the player does not decode ProRes' }, proxyFrames: 120 })).toMatchObject({ source: 'proxy', offline: false, why: 'the player does not decode ProRes' });
    expect(playbackSource({ ...base, reachable: false, unreachableWhy: 'the drive "CARD" is not connected', proxyFrames: 120 })).toMatchObject({ source: 'proxy', offline: true, why: 'the drive "CARD" is not connected' });
  });
  it('a preview stream of the original while its proxy is to come, saying so', () => {
    expect(playbackSource({ ...base, native: { ok: false, why: 'the player does not decode ProRes' }, proxyPending: true })).toMatchObject({ source: 'stream', offline: false, proxy: 'pending', why: expect.stringMatching(/ProRes.*preview stream.*proxy is made/) });
  });
  it('no preview stream of a file not probed yet (just relinked): nothing until its format is known', () => {
    const unread = { ...base, native: { ok: false, why: 'the player cannot open this container' }, proxyPending: true, probed: false };
    expect(playbackSource(unread)).toMatchObject({ source: 'none', offline: false, why: expect.stringMatching(/being read/) });
    expect(playbackSource({ ...unread, probed: true })).toMatchObject({ source: 'stream' });
  });
  it('nothing, with the reason and whether a proxy is coming: the original away or no proxy wanted', () => {
    expect(playbackSource({ ...base, native: { ok: false, why: 'the player does not decode ProRes' }, reachable: false, unreachableWhy: 'the drive "CARD" is not connected', proxyPending: true })).toMatchObject({ source: 'none', offline: true, proxy: 'pending', why: expect.stringMatching(/CARD.*proxy is made/) });
    expect(playbackSource({ ...base, native: { ok: false, why: 'the player does not decode ProRes' } })).toMatchObject({ source: 'none', proxy: 'none', why: 'the player does not decode ProRes' });
    expect(playbackSource({ ...base, reachable: false, unreachableWhy: 'gone' })).toMatchObject({ source: 'none', offline: true, proxy: 'none', why: 'gone' });
  });
  it('a clip added by URL plays from its address, unless this workstation does not read that address', () => {
    expect(playbackSource({ ...base, remote: true, native: { ok: false, why: 'x' } })).toMatchObject({ source: 'original', offline: false, why: null });
    // Added by another seat of the team, at an address this seat's rules refuse: away, saying why.
    expect(playbackSource({ ...base, remote: true, reachable: false, unreachableWhy: 'a.mp4 lives at http://127.0.0.1/a.mp4, which this workstation does not read' })).toMatchObject({
      source: 'none',
      offline: true,
      proxy: 'none',
      why: 'a.mp4 lives at http://127.0.0.1/a.mp4, which this workstation does not read',
    });
  });
});

describe('the proxy in the one decode', () => {
  const req = { outFile: '/cache/proxies/7-abc.mp4.part', height: 540, videoKbps: 1500, gop: proxyGop(25), audio: 'aac' as const, threads: 1, encoder: 'libx264' as const, vfr: false, fps: 25, picture: 'encode' as const };
  it('is one more branch of the split, every frame kept with its time, the first audio as AAC', () => {
    const { args } = buildDecodeArgs({
      filePath: '/card/A001.mov',
      startS: 0,
      audioRate: 16000,
      outputs: [{ name: 'every', fps: 'every', geometry: { outWidth: 64, outHeight: 36, filter: 'scale=64:36' }, pixFmt: 'gray' }],
      proxy: req,
    });
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph).toMatch(/^\[0:v:0\]split=2\[s0\]\[s1\]/);
    expect(graph).toContain(`[s1]${proxyBranch(req).filter}[p0]`);
    // One input only: no second decode of the original.
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    const at = args.indexOf('[p0]');
    const tail = args.slice(at, args.indexOf(req.outFile) + 1);
    expect(tail).toEqual(expect.arrayContaining(['-vsync', 'passthrough', 'libx264', '-map', '0:a:0', 'aac', '+faststart', req.outFile]));
    expect(tail[tail.indexOf('-g') + 1]).toBe('8');
    // A constant-rate source keeps the encoder's default clock (1/rate); a VFR one counts on its own.
    expect(tail).not.toContain('-enc_time_base');
    const vfr = proxyBranch({ ...req, vfr: true }).outputArgs;
    expect(vfr.slice(vfr.indexOf('-enc_time_base'), vfr.indexOf('-enc_time_base') + 2)).toEqual(['-enc_time_base', '-1']);
    // ... and x264 paces its budget by the rate it was shot at, not by that clock's ticks
    expect(vfr.slice(vfr.indexOf('-x264-params'), vfr.indexOf('-x264-params') + 2)).toEqual(['-x264-params', 'fps=25']);
    expect(tail).not.toContain('-x264-params');
  });
  it('no sound mapped for a clip without any', () => {
    const { args } = buildDecodeArgs({ filePath: '/a.mov', startS: 0, audioRate: null, outputs: [{ name: 't', fps: 2, geometry: { outWidth: 8, outHeight: 8, filter: 'scale=8:8' }, pixFmt: 'rgb24' }], proxy: { ...req, audio: null } });
    expect(args).not.toContain('aac');
    expect(args).not.toContain('0:a:0');
  });
  it('copies mono or stereo AAC as it is and encodes any other sound to AAC', () => {
    expect([proxyAudio('aac', 2), proxyAudio('aac', 1), proxyAudio('aac', 6), proxyAudio('pcm_s24le', 2), proxyAudio('aac', null), proxyAudio(null, null)]).toEqual(['copy', 'copy', 'aac', 'aac', 'aac', null]);
    const { args } = buildDecodeArgs({ filePath: '/a.mp4', startS: 0, audioRate: null, outputs: [], proxy: { ...req, audio: 'copy' } });
    const tail = args.slice(args.indexOf('[p0]'));
    expect(tail.slice(tail.indexOf('0:a:0') - 1, tail.indexOf('0:a:0') + 3)).toEqual(['-map', '0:a:0', '-c:a', 'copy']);
    expect(tail).not.toContain('aac');
  });
  it("copies a picture that already is a proxy's: its packets mapped from the input, no branch of the split, no filter graph when nothing else is decoded", () => {
    const every = { name: 'every', fps: 'every' as const, geometry: { outWidth: 64, outHeight: 36, filter: 'scale=64:36' }, pixFmt: 'gray' as const };
    const withAnalysis = buildDecodeArgs({ filePath: '/a.mp4', startS: 0, audioRate: null, outputs: [every], proxy: { ...req, picture: 'copy', audio: 'copy' } }).args;
    expect(withAnalysis[withAnalysis.indexOf('-filter_complex') + 1]).toBe('[0:v:0]null[s0];[s0]scale=64:36,format=gray,showinfo[v0]');
    const tail = withAnalysis.slice(withAnalysis.indexOf('pipe:1') + 1);
    expect(tail.slice(0, 8)).toEqual(['-map', '0:v:0', '-c:v', 'copy', '-map', '0:a:0', '-c:a', 'copy']);
    expect(tail).not.toContain('libx264');
    // The proxy stage's decode of a clip indexed before: a remux, nothing decoded.
    const alone = buildDecodeArgs({ filePath: '/a.mp4', startS: 0, audioRate: null, outputs: [], proxy: { ...req, picture: 'copy' } }).args;
    expect(alone).not.toContain('-filter_complex');
    expect(alone.slice(alone.indexOf('-i') + 2, alone.indexOf('-i') + 6)).toEqual(['-map', '0:v:0', '-c:v', 'copy']);
  });
  it('copies the picture of H.264 8-bit 4:2:0 MP4/MOV within 1080 lines and the proxy\'s bitrate, unrotated; encodes any other', () => {
    const small = { container: 'mp4', videoCodec: 'h264', pixFmt: 'yuv420p', height: 540, rotation: 0, bitRate: 1_628_000 };
    expect(proxyPicture(small)).toBe('copy');
    expect(proxyPicture({ ...small, container: 'mov', height: 360, bitRate: 400_000 })).toBe('copy');
    // A web-delivered 1080p file under the proxy's bitrate: its copy is no larger than an encode, and keeps its lines.
    expect(proxyPicture({ ...small, height: 1080, bitRate: 1_200_000 })).toBe('copy');
    for (const other of [
      { height: 1082 }, { height: 2160, bitRate: 1_000_000 }, { bitRate: 1_628_001 }, { bitRate: null }, { rotation: 90 }, { rotation: null }, { pixFmt: 'yuv422p10le' }, { pixFmt: 'yuv420p10le' },
      { videoCodec: 'vp9' }, { videoCodec: 'hevc' }, { container: 'matroska' }, { container: 'avi' }, { height: null },
    ]) expect(proxyPicture({ ...small, ...other }), JSON.stringify(other)).toBe('encode');
  });
  it('is named by clip and content, under proxies/', () => {
    expect(proxyRelPath(7, 'ab:cd/ef')).toBe('proxies/7-abcdef.mp4');
    expect(proxyRelPath(7, null)).toBe('proxies/7-nofp.mp4');
  });
});

describe('media paths', () => {
  it('carry a proxy by clip id, both ways, and nothing else under that name', () => {
    expect(parseMediaPath(mediaPath({ kind: 'proxy', clipId: 12 }))).toEqual({ kind: 'proxy', clipId: 12 });
    expect(parseMediaPath('/proxy/1e3')).toBeNull();
    expect(parseMediaPath('/proxy/0')).toBeNull();
    expect(parseMediaPath('/proxy/../../etc/passwd')).toBeNull();
  });
  it('carry a preview stream by clip id and its window\'s first frame and the one after its last, and nothing else under that name', () => {
    expect(parseMediaPath(mediaPath({ kind: 'stream', clipId: 12, from: 480, to: 528 }))).toEqual({ kind: 'stream', clipId: 12, from: 480, to: 528 });
    expect(parseMediaPath('/stream/12/0/24')).toEqual({ kind: 'stream', clipId: 12, from: 0, to: 24 });
    expect(parseMediaPath('/stream/12')).toBeNull();
    expect(parseMediaPath('/stream/12/0')).toBeNull();
    expect(parseMediaPath('/stream/0/0/24')).toBeNull();
    expect(parseMediaPath('/stream/12/-1/24')).toBeNull();
    expect(parseMediaPath('/stream/12/24/24')).toBeNull();
    expect(parseMediaPath('/stream/12/4/28/x')).toBeNull();
    expect(parseMediaPath('/stream/12/../../etc/passwd')).toBeNull();
  });
});

describe('preview stream windows', () => {
  const r2398 = { num: 24000, den: 1001 };
  it('start with a 1 s head on a grid of the clip\'s frames, the last cut at the clip\'s end', () => {
    expect(streamHeadFrames(r2398)).toBe(24);
    expect(streamHeadAt(0, r2398, 1000)).toEqual({ from: 0, to: 24 });
    expect(streamHeadAt(23, r2398, 1000)).toEqual({ from: 0, to: 24 });
    expect(streamHeadAt(480, r2398, 1000)).toEqual({ from: 480, to: 504 });
    expect(streamHeadAt(999, r2398, 1000)).toEqual({ from: 984, to: 1000 });
    // Past the end (seekFrame clamps there too): the last head.
    expect(streamHeadAt(5000, r2398, 1000)).toEqual({ from: 984, to: 1000 });
    expect(streamHeadAt(510, { num: 25, den: 1 }, null)).toEqual({ from: 500, to: 525 });
  });
  it('play on into windows twice as long each, up to 16 heads, none after the clip\'s end', () => {
    const run: { from: number; to: number }[] = [streamHeadAt(456, r2398, 1000)];
    for (let w = streamWindowAfter(run[0]!, r2398, 1000); w; w = streamWindowAfter(w, r2398, 1000)) run.push(w);
    expect(run.map((w) => w.to - w.from)).toEqual([24, 48, 96, 192, 184]);
    expect(run.at(-1)!.to).toBe(1000);
    // Contiguous, and every one is a window main makes.
    run.slice(1).forEach((w, i) => expect(w.from).toBe(run[i]!.to));
    for (const w of run) expect(isStreamWindow(w, r2398, 1000)).toBe(true);
    let w = streamHeadAt(0, r2398, null);
    for (let i = 0; i < 8; i++) w = streamWindowAfter(w, r2398, null)!;
    expect(w.to - w.from).toBe(16 * 24);
    expect(isStreamWindow(w, r2398, null)).toBe(true);
  });
  it('run back from a head in windows twice as long each, cut at the clip\'s start', () => {
    const run: { from: number; to: number }[] = [streamHeadAt(456, r2398, 1000)];
    for (let w = streamWindowBefore(run[0]!, r2398); w; w = streamWindowBefore(w, r2398)) run.push(w);
    expect(run.map((w) => [w.from, w.to])).toEqual([[456, 480], [408, 456], [312, 408], [120, 312], [0, 120]]);
    for (const w of run) expect(isStreamWindow(w, r2398, 1000)).toBe(true);
  });
  it('are only those main makes: on the heads\' grid, a head times a power of two, cut only at the start or the end', () => {
    expect(isStreamWindow({ from: 5, to: 29 }, r2398, 1000)).toBe(false);
    expect(isStreamWindow({ from: 24, to: 60 }, r2398, 1000)).toBe(false);
    expect(isStreamWindow({ from: 0, to: 32 * 24 }, r2398, null)).toBe(false);
    expect(isStreamWindow({ from: 984, to: 1008 }, r2398, 1000)).toBe(false);
    expect(isStreamWindow({ from: 984, to: 1000 }, r2398, 1000)).toBe(true);
  });
  it('the viewer keeps its window while the playhead is in it, runs on into the next while playing, else asks a head', () => {
    const head = streamHeadAt(456, r2398, 1000);
    expect(streamWindowFor(null, 456, 0, r2398, 1000)).toEqual(head);
    expect(streamWindowFor(head, 470, 1, r2398, 1000)).toBe(head);
    expect(streamWindowFor(head, 480, 1, r2398, 1000)).toEqual({ from: 480, to: 528 });
    // Reverse play out of its start: the window before it, twice as long.
    expect(streamWindowFor(head, 455, -1, r2398, 1000)).toEqual({ from: 408, to: 456 });
    // A step or a seek past an end while paused, play landing beyond the next window: a head where it lands.
    expect(streamWindowFor(head, 480, 0, r2398, 1000)).toEqual({ from: 480, to: 504 });
    expect(streamWindowFor(head, 455, 0, r2398, 1000)).toEqual({ from: 432, to: 456 });
    expect(streamWindowFor(head, 700, 1, r2398, 1000)).toEqual({ from: 696, to: 720 });
  });
  it('transcode from a millisecond before the window\'s first picture, its times shifted back by as much, at the height asked', () => {
    const pictures = windowPictures({ from: 480, to: 960 }, r2398, null);
    expect(pictures).toEqual({ startS: (480 * 1001) / 24000, pictures: 480, seconds: expect.closeTo((480 * 1001) / 24000, 9) });
    const args = rangeStreamArgs({ input: '/card/A.mov', rate: r2398, pictures, vfr: false, height: 360, audio: true, outFile: '/cache/streams/x.mp4' });
    const seek = rangeStreamSeekS(pictures.startS);
    expect(seek).toBeCloseTo((480 * 1001) / 24000 - 0.001, 9);
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 2)).toEqual(['-ss', seek.toFixed(6)]);
    expect(args.slice(args.indexOf('-output_ts_offset'), args.indexOf('-output_ts_offset') + 2)).toEqual(['-output_ts_offset', seek.toFixed(6)]);
    expect(args).toEqual(expect.arrayContaining(['-frames:v', '480', '-vsync', 'passthrough', 'libx264', 'ultrafast', '-map', '0:a:0']));
    expect(args[args.indexOf('-vf') + 1]).toContain('min(ih,360)');
    // Constant rate: the encoder's default clock (1/rate); a VFR clip's own clock keeps its times.
    expect(args).not.toContain('-enc_time_base');
    expect(rangeStreamArgs({ input: 'a', rate: r2398, pictures, vfr: true, height: 540, audio: false, outFile: 'b' })).toEqual(expect.arrayContaining(['-enc_time_base', '-1']));
    expect(rangeStreamArgs({ input: 'a', rate: r2398, pictures, vfr: false, height: 540, audio: false, outFile: 'b' })).not.toContain('0:a:0');
  });
  it('a VFR clip\'s window holds the pictures its grid positions show, from the one held across its start, each at its own time', () => {
    // The phone clip's times (30 fps with jitter, 20 fps after picture 45) on its 30 fps grid.
    const times = vfrPhoneTimes(90);
    const r30 = { num: 30, den: 1 };
    // Grid 30 (1.000 s) shows picture 29 (0.9767 s); grid 59 (1.9667 s) shows picture 54 (1.9589 s).
    expect(windowPictures({ from: 30, to: 60 }, r30, times)).toEqual({ startS: times[29], pictures: 26, seconds: expect.closeTo(times[55]! - times[29]!, 9) });
    // The first window starts at 0 whatever its first picture's time; grid 29 (0.9667 s) still shows picture 28.
    expect(windowPictures({ from: 0, to: 30 }, r30, times)).toMatchObject({ startS: 0, pictures: 29 });
    // Adjacent windows share the picture held across their boundary, and nothing is left out.
    const a = windowPictures({ from: 60, to: 90 }, r30, times);
    // The last picture (3.7100 s) first shows at grid 112.
    const b = windowPictures({ from: 90, to: 113 }, r30, times);
    const firstOf = (w: { startS: number }) => times.findIndex((t) => Math.abs(t - w.startS) < 1e-9);
    expect(firstOf(b)).toBeLessThanOrEqual(firstOf(a) + a.pictures);
    expect(firstOf(b) + b.pictures).toBe(90);
  });
});

describe('room for a proxy', () => {
  it('its own size at its ceilings plus a reserve of 1 GiB', () => {
    expect(proxyBytesFor(3600)).toBeGreaterThan(0.9e9);
    expect(proxyBytesFor(3600)).toBeLessThan(1.2e9);
    expect(roomForProxy(PROXY_RESERVE_BYTES + proxyBytesFor(10), 10)).toBe(true);
    expect(roomForProxy(PROXY_RESERVE_BYTES, 10)).toBe(false);
  });
});
