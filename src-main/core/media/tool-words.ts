/**
 * What went wrong in ffmpeg's or ffprobe's words, said as a clause an editor can read: "Error
 * marking filters as finished" or "Invalid data found when processing input" tell the editor
 * nothing, and were shown as the reason a clip added by URL had no poster or a range could not be
 * tagged. The tool's own words stay in the log (the AppError's cause).
 */
const PLAIN: Array<[RegExp, string]> = [
  [/no space left on device/i, 'the disk is full'],
  [/permission denied/i, 'the file could not be opened (permission denied)'],
  [/server returned|connection (refused|reset|timed out)|input\/output error|i\/o error|stream ends prematurely|end of file|will reconnect|failed to reconnect/i, 'the video stopped arriving before it could be read'],
  [/moov atom not found|invalid data found|could not find codec parameters|error reading header|invalid nal|truncat/i, 'the data there is not a whole video Reelscout can read (damaged, cut short, or not a video file)'],
  [/decoder .*not found|unsupported codec|no decoder|not yet implemented|unknown codec/i, 'it uses a video format this ffmpeg cannot decode'],
  [/marking filters as finished|error while filtering|reinitializing filters|output file is empty|nothing was encoded|no frame|does not contain any stream/i, 'no picture could be decoded at that point of the video'],
];

export function plainToolFailure(toolText: string): string {
  for (const [pattern, plain] of PLAIN) if (pattern.test(toolText)) return plain;
  return 'the video could not be read there';
}

/** The last line a tool printed on stderr (what its failure is read from), or its exit code. */
export function lastToolLine(stderr: string, code: number | null): string {
  return stderr.trim().split('\n').at(-1)?.trim() || `exit ${code ?? 'signal'}`;
}
