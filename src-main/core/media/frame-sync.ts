/**
 * How ffmpeg times the frames of an output: `-vsync MODE`. The one spelling every ffmpeg the app
 * meets understands: the bundled builds (4.1, 4.4) know only `-vsync`; `-fps_mode`, its new name
 * since 5.1, is refused there, while 5.1 to 8.x still take `-vsync` (with a deprecation line on
 * stderr that nothing here parses as an error).
 */
export function frameSync(mode: 'passthrough' | 'vfr'): string[] {
  return ['-vsync', mode];
}
