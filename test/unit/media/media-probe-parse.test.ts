import { describe, expect, it } from 'vitest';
import { explainProbeFailure, startsLikeIsoMedia } from '../../../src-main/core/media/probe';
import { isVariableFrameRate, nominalRate, nominalRateOfTimes, parseProbeJson, parseRate, rotationOf } from '../../../src-main/core/media/probe-parse';
import { vfrPhoneTimes } from '../../helpers/footage/playback-footage';

describe('ffprobe JSON parsing', () => {
  it('parses rates and tells variable frame rate apart from rounding', () => {
    expect(parseRate('30000/1001')).toBeCloseTo(29.97, 2);
    expect(parseRate('0/0')).toBeNull();
    expect(parseRate('garbage')).toBeNull();
    expect(isVariableFrameRate(30, 30000 / 1001)).toBe(false); // 0.1 %: container rounding
    expect(isVariableFrameRate(30, 22.5)).toBe(true);
    expect(isVariableFrameRate(90000, 29.87)).toBe(true);
    expect(isVariableFrameRate(null, 25)).toBe(false);
  });

  it('counts a variable-rate clip at the rate it was shot at, not at its average or its clock', () => {
    // A phone at 30 fps dropping to 20 in low light: 30, so no picture falls between two frames.
    expect(nominalRate(30, 24.2)).toBe(30);
    // A timestamp clock (a screen recorder's 1/90000, a millisecond container) is no camera's rate.
    expect(nominalRate(90000, 29.87)).toBe(29.87);
    expect(nominalRate(1000, 59.6)).toBe(59.6);
    expect(nominalRate(null, 24.2)).toBe(24.2);
    expect(nominalRate(30, null)).toBe(30);
    const probed = parseProbeJson(
      { streams: [{ codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, r_frame_rate: '30/1', avg_frame_rate: '2250/93', duration: '3.72' }], format: { format_name: 'mov,mp4', duration: '3.72' } },
      'phone.mp4',
    );
    expect(probed.vfr).toBe(true);
    expect(probed.fps).toBe(30);
    // A container without a frame count: estimated from the average, the pictures there are.
    expect(probed.frameCount).toBe(Math.round((2250 / 93) * 3.72));
  });

  it("reads a VFR clip's nominal rate from its pictures' times: the camera's rate, not its clock's tick nor its average", () => {
    const at = (n: number, rate: number, from = 0) => Array.from({ length: n }, (_, i) => from + i / rate);
    // The phone clip: 30 fps with up to 12 ms of jitter, 20 fps after 45 pictures; its average is 24.19, its clock 1/90000.
    const phone = vfrPhoneTimes(90);
    expect((phone.length - 1) / (phone.at(-1)! - phone[0]!)).toBeLessThan(24.5);
    expect(nominalRateOfTimes(phone)).toBe(30);
    // 29.97 and 30 (0.1% apart) are told apart by the fit over the stretch, not by a window's jitter.
    expect(nominalRateOfTimes(at(120, 30000 / 1001))).toBe(30000 / 1001);
    expect(nominalRateOfTimes(at(120, 24000 / 1001))).toBe(24000 / 1001);
    expect(nominalRateOfTimes(at(120, 50))).toBe(50);
    // A held picture (a dropped frame) here and there does not move it.
    expect(nominalRateOfTimes(at(120, 60).filter((_, i) => i % 17 !== 5))).toBe(60);
    // A camera slowing in low light: the rate it ran at before, though most of the time is slower.
    expect(nominalRateOfTimes([...at(40, 25), ...at(80, 12.5, 40 / 25)])).toBe(25);
    // No stretch at a camera's rate (a 15 fps screen recording), too few pictures, no span: no rate; the probe keeps ffprobe's.
    expect(nominalRateOfTimes(at(120, 15))).toBeNull();
    expect(nominalRateOfTimes(at(8, 30))).toBeNull();
    expect(nominalRateOfTimes(Array.from({ length: 40 }, () => 1))).toBeNull();
    // Only the first pictures are read: what comes after does not count.
    expect(nominalRateOfTimes([...at(300, 30), ...at(900, 25, 10)])).toBe(30);
  });

  it('reads rotation clockwise from the display matrix first, then the legacy tag', () => {
    // ffprobe reports the display matrix counter-clockwise: -90 means the player turns it 90° clockwise.
    expect(rotationOf({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] })).toBe(90);
    expect(rotationOf({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: 90 }] })).toBe(270);
    expect(rotationOf({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: '-180.00' }] })).toBe(180);
    expect(rotationOf({ tags: { rotate: '90' } })).toBe(90);
    expect(rotationOf({ side_data_list: [{ rotation: 0 }], tags: { rotate: '90' } })).toBe(0);
    expect(rotationOf({})).toBe(0);
  });

  it('maps a rotated phone video to its displayed size, with codecs, audio and timecode', () => {
    const info = parseProbeJson(
      {
        streams: [
          {
            index: 0, codec_type: 'video', codec_name: 'hevc', width: 1920, height: 1080, r_frame_rate: '30/1', avg_frame_rate: '2950/100',
            nb_frames: '300', side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }],
          },
          { index: 1, codec_type: 'audio', codec_name: 'aac', channels: 2, duration: '10.0' },
          { index: 2, codec_type: 'data', codec_name: 'none', tags: { timecode: '01:02:03:04' } },
        ],
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.010000', bit_rate: '12000000' },
      },
      '/card/IMG_0001.MOV',
    );
    expect(info).toMatchObject({
      container: 'mov', videoCodec: 'hevc', audioCodec: 'aac', audioChannels: 2, width: 1080, height: 1920, codedWidth: 1920,
      rotation: 90, vfr: true, timecode: '01:02:03:04', frameCount: 300, hasVideo: true, bitRate: 12000000,
    });
    expect(info.fps).toBe(30); // variable: the rate it was shot at (its average is 29.5)
    expect(info.durationS).toBeCloseTo(10.01, 3);
  });

  it('reads the sample aspect ratio of the footage as displayed, square when unknown', () => {
    const sar = (video: Record<string, unknown>, extra: Record<string, unknown>[] = []) =>
      parseProbeJson({ streams: [...extra, { codec_type: 'video', codec_name: 'h264', width: 720, height: 576, ...video }], format: { format_name: 'mov' } }, 'a.mov').sar;
    expect(sar({ sample_aspect_ratio: '16:15' })).toBeCloseTo(16 / 15, 9);
    expect(sar({ sample_aspect_ratio: '16:15', side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] })).toBeCloseTo(15 / 16, 9);
    expect(sar({ sample_aspect_ratio: '0:1' })).toBe(1);
    expect(sar({ sample_aspect_ratio: 'N/A' })).toBe(1);
    expect(sar({})).toBe(1);
    // Cover art before the footage does not lend it its pixels.
    expect(sar({ sample_aspect_ratio: '1:1' }, [{ codec_type: 'video', codec_name: 'mjpeg', sample_aspect_ratio: '4:3', disposition: { attached_pic: 1 } }])).toBe(1);
  });

  it('does not take cover art for footage: an audio file with a picture is audio only', () => {
    const info = parseProbeJson(
      {
        streams: [
          { codec_type: 'audio', codec_name: 'mp3', channels: 2 },
          { codec_type: 'video', codec_name: 'mjpeg', width: 500, height: 500, disposition: { attached_pic: 1 } },
        ],
        format: { format_name: 'mp3', duration: '3.1' },
      },
      'song.mp4',
    );
    expect(info.hasVideo).toBe(false);
    expect(info.videoCodec).toBeNull();
    expect(info.hasAudio).toBe(true);
  });

  it('reads the reel name, each audio stream\'s channels and the audio rate; counts frames of the video, not the container', () => {
    const info = parseProbeJson(
      {
        streams: [
          { codec_type: 'video', codec_name: 'prores', width: 1920, height: 1080, r_frame_rate: '24000/1001', avg_frame_rate: '24000/1001', duration: '5.005' },
          { codec_type: 'audio', codec_name: 'pcm_s24le', channels: 1, sample_rate: '48000' },
          { codec_type: 'audio', codec_name: 'pcm_s24le', channels: 1, sample_rate: '48000' },
          { codec_type: 'audio', codec_name: 'pcm_s24le', channels: 2, sample_rate: '48000' },
          { codec_type: 'data', codec_name: 'tmcd', tags: { reel_name: 'A001C003', timecode: '01:00:00:00' } },
        ],
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '5.1' },
      },
      'A001C003.mov',
    );
    expect([info.reelName, info.audioLayout, info.audioRate]).toEqual(['A001C003', [1, 1, 2], 48000]);
    // No frame count in the stream: the video's own duration (5.005 s = 120 frames), not the container's 5.1 s.
    expect(info.frameCount).toBe(120);
    const mxf = parseProbeJson({ streams: [{ codec_type: 'video', avg_frame_rate: '25/1' }], format: { format_name: 'mxf', tags: { tape_name: ' TAPE 7 ' } } }, 'x.mxf');
    expect([mxf.reelName, mxf.audioLayout, mxf.audioRate]).toEqual(['TAPE 7', [], null]);
  });

  it('picks the container name that matches the extension', () => {
    const mk = (file: string) => parseProbeJson({ streams: [{ codec_type: 'video', codec_name: 'vp9' }], format: { format_name: 'matroska,webm' } }, file);
    expect(mk('a.webm').container).toBe('webm');
    expect(mk('a.mkv').container).toBe('matroska');
    expect(mk('a.avi').container).toBe('matroska');
  });

  it('rejects output that is not ffprobe JSON', () => {
    expect(() => parseProbeJson({ streams: 'nope' }, 'x.mp4')).toThrow(/unexpected ffprobe output/);
  });

  it('explains common ffprobe failures in words', () => {
    expect(explainProbeFailure('[mov @ 0x1] moov atom not found\nx.mp4: Invalid data found when processing input')).toMatch(/truncated/);
    expect(explainProbeFailure('x.mp4: Invalid data found when processing input')).toMatch(/not a recognisable media file/);
    expect(explainProbeFailure('x.mp4: Permission denied')).toBe('permission denied');
    expect(explainProbeFailure('')).toBe('ffprobe could not read the file');
  });
});

describe('truncated MP4 or not an MP4 at all', () => {
  it('tells them apart by the first box header', () => {
    const box = (type: string) => Uint8Array.from([0, 0, 0, 32, ...Buffer.from(type, 'latin1')]);
    const stderr = '[mov,mp4 @ 0x1] moov atom not found\nx.mp4: Invalid data found when processing input';
    expect(startsLikeIsoMedia(box('ftyp'))).toBe(true);
    expect(startsLikeIsoMedia(Buffer.from('INT. CAR - DAY'))).toBe(false);
    expect(explainProbeFailure(stderr, box('ftyp'))).toMatch(/truncated/);
    expect(explainProbeFailure(stderr, box('mdat'))).toMatch(/truncated/);
    expect(explainProbeFailure(stderr, Buffer.from('INT. CAR - DAY'))).toMatch(/not a recognisable media file/);
  });
});
