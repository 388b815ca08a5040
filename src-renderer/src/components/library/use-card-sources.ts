import { useEffect, useState } from 'react';
import type { Result } from '../../../../src-shared/contract';
import { api } from '../../api/client';

export type CardSource = Result<'playback.sources'>['sources'][number];

/**
 * What each card in view says of its playback (the original, its proxy, or nothing yet), read
 * for the clips on screen, again when the catalog says they changed (a proxy made, a drive away),
 * and every few seconds.
 */
export function useCardSources(clipIds: readonly number[]): ReadonlyMap<number, CardSource> {
  const [sources, setSources] = useState<ReadonlyMap<number, CardSource>>(new Map());
  const key = clipIds.join(',');
  useEffect(() => {
    const ids = key ? key.split(',').map(Number) : [];
    if (ids.length === 0) return;
    let live = true;
    const load = () =>
      api.call('playback.sources', { clipIds: ids.slice(0, 500) }).then(
        (r) => live && setSources(new Map(r.sources.map((s) => [s.clipId, s]))),
        () => undefined,
      );
    void load();
    const off = api.on('catalog.changed', (p) => {
      if (!p.clipIds || p.clipIds.some((id) => ids.includes(id))) void load();
    });
    // A folder renamed away or a file deleted says nothing to the catalog until some work meets it:
    // the cards in view look again every few seconds (one stat each).
    const every = setInterval(() => void load(), 5000);
    return () => {
      live = false;
      off();
      clearInterval(every);
    };
  }, [key]);
  return sources;
}

/** The card's word for it, the viewer's badge's (SourceBadge.tsx) in short: none for an original that plays (the usual case says nothing). */
export function cardSourceTag(s: CardSource | undefined): { label: string; title: string; tone: string } | null {
  if (!s || s.source === 'original') return null;
  if (s.source === 'proxy') return { label: s.offline ? 'Proxy · offline' : 'Proxy', title: s.offline ? 'The original is offline: the viewer plays its proxy' : 'The viewer plays its proxy (the player cannot decode the original)', tone: s.offline ? 'offline' : 'proxy' };
  if (s.source === 'stream') return { label: 'Preview stream', title: 'The viewer plays a preview stream made from the original; its proxy is made while it is indexed', tone: 'pending' };
  return s.proxy === 'pending'
    ? { label: 'Preparing proxy', title: 'Its proxy is made while it is indexed', tone: 'pending' }
    : { label: s.offline ? 'Offline' : 'No playback', title: s.offline ? 'The original is offline and has no proxy' : 'The player cannot decode it and it has no proxy', tone: 'none' };
}
