import type { ToolStatus } from '../../../src-shared/contract/settings';
import { toAppError } from '../../../src-shared/errors';
import { ffPath, locateTool, type FfTool } from '../media/ffmpeg-locate';
import { verifyTool } from '../media/tool-check';
import type { PreferencesService } from './preferences';

export interface ToolPaths {
  /** The chosen programs, each checked to be ffmpeg/ffprobe before anything runs it. */
  tools(): { ffmpeg?: string; ffprobe?: string };
  /** Where ffmpeg and ffprobe come from, checked (Settings). */
  toolStatus(): ToolStatus[];
  /** The ffmpeg to run; throws when there is none. */
  ffmpegBinary(): string;
  /** The ffmpeg to run, or null. */
  ffmpegPath(): string | null;
}

/**
 * Paths chosen in main (Settings' file dialog, web mode's flags), read at each use so a change
 * applies without a restart, and checked to be ffmpeg/ffprobe before anything runs them.
 */
export function createToolPaths(flags: Partial<Record<FfTool, string>> | undefined, preferences: PreferencesService): ToolPaths {
  const chosenTool = (tool: FfTool): { path: string; source: 'flag' | 'setting' } | null => {
    const flag = flags?.[tool];
    if (flag) return { path: flag, source: 'flag' };
    const p = preferences.get();
    const setting = tool === 'ffmpeg' ? p.ffmpegPath : p.ffprobePath;
    return setting ? { path: setting, source: 'setting' } : null;
  };
  const tools = () => {
    const out: { ffmpeg?: string; ffprobe?: string } = {};
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const chosen = chosenTool(tool);
      if (!chosen) continue;
      verifyTool(tool, chosen.path);
      out[tool] = chosen.path;
    }
    return out;
  };
  const toolStatus = (): ToolStatus[] =>
    (['ffmpeg', 'ffprobe'] as const).map((tool) => {
      const chosen = chosenTool(tool);
      try {
        const located = locateTool(tool, { explicit: { [tool]: chosen?.path } });
        return { tool, path: located.path, source: chosen?.source ?? located.source, origin: located.origin ?? null, version: verifyTool(tool, located.path), error: null };
      } catch (e) {
        return { tool, path: chosen?.path ?? null, source: chosen?.source ?? null, origin: null, version: null, error: toAppError(e).toJSON() };
      }
    });
  const ffmpegBinary = () => ffPath('ffmpeg', { ffmpeg: tools().ffmpeg });
  const ffmpegPath = () => {
    try {
      return ffmpegBinary();
    } catch {
      return null;
    }
  };
  return { tools, toolStatus, ffmpegBinary, ffmpegPath };
}
