import { describe, expect, it } from 'vitest';
import { plainToolFailure } from '../../../src-main/core/media/tool-words';

/** Issue 41 item 3: ffmpeg's words are never the reason an editor reads. */
describe('plainToolFailure', () => {
  it.each([
    ['Error marking filters as finished', /no picture could be decoded/],
    ['[mov,mp4] moov atom not found\nInvalid data found when processing input', /not a whole video/],
    ['http://127.0.0.1:1/x: Server returned 5XX Server Error reply', /stopped arriving/],
    ['Decoder (codec prores) not found for input stream #0:0', /cannot decode/],
    ['something nobody foresaw', /could not be read there/],
  ])('%s', (text, plain) => {
    const said = plainToolFailure(text);
    expect(said).toMatch(plain);
    expect(said).not.toMatch(/ffmpeg's|Error marking|Invalid data|Server returned|moov/);
  });
});
