export interface ToolSource {
  /** The npm package whose tarball carries the binary. */
  package: string;
  /** The binary's architecture when it is not the target's (macOS arm64's ffmpeg runs under Rosetta 2). */
  arch?: 'x64' | 'arm64';
}
/** Each target's (electron-builder's ${os}-${arch}) source of ffmpeg and ffprobe. */
export const SOURCES: Record<string, Record<'ffmpeg' | 'ffprobe', ToolSource>>;
/** The licence a binary's configuration reports; throws for a nonfree build or one that says none. */
export function licenceOf(bytes: Buffer, name: string): { says: string; text: string | null };
