import type { ReactNode } from 'react';
import type { Playback } from '../../../../src-shared/contract/playback';
import type { StreamWindow } from '../../../../src-shared/stream-window';
import { api } from '../../api/client';

/**
 * The file the <video> reads: the original, the clip's proxy (made by its indexing), or the
 * preview stream of the window `stream` (stream-window.ts) while that proxy is to come.
 */
export function sourceUrl(clipId: number, p: Playback, stream: StreamWindow | null): string | null {
  if (p.source === 'none') return null;
  if (p.source === 'stream') return stream === null ? null : api.mediaUrl({ kind: 'stream', clipId, from: stream.from, to: stream.to });
  return api.mediaUrl({ kind: p.source === 'proxy' ? 'proxy' : 'clip', clipId });
}

/** The badge's words for what plays; `reduced`: the preview window shown was made smaller, the transcode not keeping up at full size. */
export function sourceLabel(p: Playback, reduced = false): string {
  switch (p.source) {
    case 'original':
      return 'Original';
    case 'proxy':
      return p.offline ? 'Proxy · original offline' : 'Proxy';
    case 'stream':
      return reduced ? 'Preview stream · reduced size' : 'Preview stream · proxy not made yet';
    case 'none':
      return p.proxy === 'pending' ? 'Preparing proxy' : 'Not playable';
  }
}

/**
 * What is playing, said where the editor looks (beside the clip's name): the original; the proxy
 * and why (its codec, an unplugged drive: frame numbers and timecode are the original's either
 * way); a preview stream made from the original while its proxy is to come (the same frame
 * numbers: its times are the clip's), and when its windows are made smaller because the machine
 * cannot make them at full size in real time; or that nothing can play yet.
 */
export function SourceBadge({ playback, reduced = false }: { playback: Playback; reduced?: boolean }): ReactNode {
  const why = playback.why ?? 'Playing the original file';
  const title = reduced ? `${why}. Shown smaller while this computer cannot make the preview at full size as fast as it plays; frame numbers and timecode are exact.` : why;
  return (
    <span className={`viewer-source viewer-source-${playback.source}${playback.offline ? ' offline' : ''}`} title={title} data-testid="viewer-source" data-source={playback.source} data-reduced={reduced ? 'true' : undefined}>
      {sourceLabel(playback, reduced)}
    </span>
  );
}
