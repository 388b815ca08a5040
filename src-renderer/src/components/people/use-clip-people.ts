import { useEffect, useState } from 'react';
import { api } from '../../api/client';

/** The named people seen in each clip on screen (cards, the list's People column), read again when people change. */
export function useClipPeople(clipIds: readonly number[]): ReadonlyMap<number, readonly string[]> {
  const [names, setNames] = useState<ReadonlyMap<number, readonly string[]>>(new Map());
  const key = clipIds.join(',');
  useEffect(() => {
    const ids = key ? key.split(',').map(Number) : [];
    if (ids.length === 0) return;
    let live = true;
    const load = () =>
      api.call('people.inClips', { clipIds: ids.slice(0, 2000) }).then(
        (r) => live && setNames(new Map(Object.entries(r.clips).map(([id, n]) => [Number(id), n]))),
        () => undefined,
      );
    void load();
    // A name given, merged or forgotten changes clips nobody listed: any people change reads again.
    const off = api.on('catalog.changed', (p) => p.reason === 'people' && void load());
    return () => {
      live = false;
      off();
    };
  }, [key]);
  return names;
}
