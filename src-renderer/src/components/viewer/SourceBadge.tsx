import type { ReactNode } from 'react';
import type { Playback } from '../../../../src-shared/contract/playback';
import { api } from '../../api/client';

/** The file the <video> reads: the original, or the clip's proxy (made by its indexing). */
export function sourceUrl(clipId: number, p: Playback): string | null {
  if (p.source === 'none') return null;
  return api.mediaUrl({ kind: p.source === 'proxy' ? 'proxy' : 'clip', clipId });
}

/**
 * What is playing, said where the editor looks (beside the clip's name): the original; the proxy
 * and why (its codec, an unplugged drive: frame numbers and timecode are the original's either
 * way); or that nothing can play yet.
 */
export function SourceBadge({ playback }: { playback: Playback }): ReactNode {
  const label = playback.source === 'original' ? 'Original' : playback.source === 'proxy' ? (playback.offline ? 'Proxy · original offline' : 'Proxy') : playback.proxy === 'pending' ? 'Preparing proxy' : 'Not playable';
  const title = playback.why ?? 'Playing the original file';
  return (
    <span className={`viewer-source viewer-source-${playback.source}${playback.offline ? ' offline' : ''}`} title={title} data-testid="viewer-source" data-source={playback.source}>
      {label}
    </span>
  );
}
