import fs from 'node:fs';

/**
 * The options x264 wrote into a file it encoded (its SEI user data, "x264 - core N ... - options:
 * cabac=0 ref=1 ..."), as name -> value: what the encoder really ran with, whatever the ffmpeg
 * wrapper in between changed. Throws when the file holds no such string (not written by x264).
 */
export function x264Options(file: string): Map<string, string> {
  const bytes = fs.readFileSync(file);
  const start = bytes.indexOf('x264 - core ');
  if (start < 0) throw new Error(`${file} has no x264 options string`);
  const end = bytes.indexOf(0, start);
  const text = bytes.subarray(start, end < 0 ? undefined : end).toString('latin1');
  const options = text.slice(text.indexOf('options: ') + 'options: '.length);
  return new Map(options.split(' ').filter((o) => o.includes('=')).map((o) => o.split('=', 2) as [string, string]));
}
