/**
 * The sizes in bytes the team server refuses beyond (team migration 0009, CHECK octet_length): the
 * seat's writers clip a text that is only a name or a hint, and refuse a payload, before sending, so an
 * editor's work never meets the server's check by accident. Each is far above what the app itself
 * makes (the migration says what, per column). Pure, tested directly (test/unit/team/team-bounds.test.ts).
 */
export const TEAM_BOUNDS = {
  /** team.clips.file_name: the name a clip was first seen under. */
  fileName: 1024,
  /** team.jobs.last_error_kind / last_error_message. */
  errorKind: 64,
  errorMessage: 4096,
  /** team.ranges.name / note, team.keywords.keyword. */
  rangeName: 2048,
  rangeNote: 65536,
  keyword: 1024,
  /** team.clip_results.shots as JSON text. */
  shots: 16 * 2 ** 20,
  /** team.segments.tags_raw. */
  tagsRaw: 65536,
  /** team.thumbnails.image. */
  image: 8 * 2 ** 20,
  /** team.uploads.storage_keys as JSON text. */
  storageKeys: 262144,
  /** team.text_vectors.text_norm. */
  textNorm: 8000,
} as const;

export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * `s` cut to at most `maxBytes` of UTF-8, at a character (never inside a surrogate pair, so the cut
 * is valid text the server takes).
 */
export function clipToBytes(s: string, maxBytes: number): string {
  if (utf8Bytes(s) <= maxBytes) return s;
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const n = utf8Bytes(ch);
    if (bytes + n > maxBytes) break;
    bytes += n;
    end += ch.length;
  }
  return s.slice(0, end);
}
