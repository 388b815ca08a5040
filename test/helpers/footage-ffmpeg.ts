import { locateTool } from '../../src-main/core/media/ffmpeg-locate';

/**
 * The ffmpeg that makes labelled test footage with filters the bundled build (4.1) lacks, such as
 * xfade (4.3) for dissolves and fades: FFMPEG_PATH, else the system's (Debian's, which CI
 * installs). The app under test still decodes with its own; only the footage comes from here.
 */
export function footageFfmpeg(): string {
  return locateTool('ffmpeg', { resourcesPath: '/nonexistent', appRoot: '/nonexistent' }).path;
}
