import { locateTool, type FfTool } from '../../../src-main/core/media/ffmpeg-locate';

/**
 * The ffmpeg that makes labelled test footage with filters the bundled build (4.1) lacks, such as
 * xfade (4.3) for dissolves and fades: FFMPEG_PATH, else the system's (Debian's, which CI
 * installs). The app under test still decodes with its own; only the footage comes from here.
 */
export function footageFfmpeg(): string {
  return footageTool('ffmpeg');
}

/** The ffprobe beside footageFfmpeg (FFPROBE_PATH, else the system's): to check what it made. */
export function footageFfprobe(): string {
  return footageTool('ffprobe');
}

function footageTool(tool: FfTool): string {
  return locateTool(tool, { resourcesPath: '/nonexistent', appRoot: '/nonexistent' }).path;
}
