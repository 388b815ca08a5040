import { describe, expect, it } from 'vitest';
import { runTool, toolStartFailure } from '../../../src-main/core/media/run-process';

/** The error Node gives when execve fails: code, errno and message as libuv reports them. */
function spawnError(code: string, errno: number, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, errno, syscall: 'spawn' });
}

describe('why a tool could not start', () => {
  it('a missing tool is a media error that says where it was looked for', async () => {
    await expect(runTool('/nonexistent/ffprobe', ['-version'])).rejects.toMatchObject({ kind: 'media', message: expect.stringMatching(/ffprobe was not found at \/nonexistent\/ffprobe/) });
  });

  it("on a Mac without Rosetta 2, an x86-64 build says how to install Rosetta (libuv's 'Unknown system error -86' or a code)", () => {
    for (const err of [spawnError('Unknown system error -86', -86, 'spawn Unknown system error -86'), spawnError('EBADARCH', -86, 'spawn EBADARCH'), spawnError('UNKNOWN', -1, 'Bad CPU type in executable')]) {
      const e = toolStartFailure('/Applications/Reelscout.app/Contents/Resources/ffmpeg/ffmpeg', err, 'darwin');
      expect(e.kind).toBe('media');
      expect(e.message).toMatch(/ffmpeg is an Intel \(x86-64\) build .* softwareupdate --install-rosetta/);
    }
    // The same errno elsewhere is another error: no Rosetta advice on Linux or Windows.
    expect(toolStartFailure('/x/ffmpeg', spawnError('Unknown system error -86', -86, 'spawn Unknown system error -86'), 'linux')).toMatchObject({ kind: 'io' });
  });

  it('another system error stays an io error with the system message', () => {
    expect(toolStartFailure('/x/ffmpeg', spawnError('EACCES', -13, 'spawn EACCES'))).toMatchObject({ kind: 'io', message: '/x/ffmpeg: spawn EACCES' });
  });
});
