import { useCallback, useEffect, useRef, useState } from 'react';
import type { CollectionsList, CollectionVideo } from '../../../../src-shared/contract/collections';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** The collection list: the cached one at once, then the service's when it answers (refresh). */
export function useCollectionsList(): {
  list: CollectionsList | null;
  loading: boolean;
  error: string | null;
  reload: (refresh: boolean) => Promise<void>;
} {
  const [list, setList] = useState<CollectionsList | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const live = useRef(true);

  const reload = useCallback(async (refresh: boolean) => {
    // Only a service refresh shows as loading: cache reads after status changes are instant.
    if (refresh) setLoading(true);
    try {
      const l = await api.call('collections.list', { refresh });
      if (live.current) {
        setList(l);
        setError(null);
      }
    } catch (e) {
      if (live.current) setError((e as AppError).message);
    } finally {
      if (live.current && refresh) setLoading(false);
    }
  }, []);

  useEffect(() => {
    live.current = true;
    void reload(true);
    const off = api.on('collections.changed', (l) => {
      // A cache-only update must not hide why the last refresh fell back to the cache.
      setList((prev) => (l.source === 'cache' && prev?.error && !l.error ? { ...l, error: prev.error, source: 'cache' } : l));
    });
    return () => {
      live.current = false;
      off();
    };
  }, [reload]);

  return { list, loading, error, reload };
}

/** The clips of one collection, kept current by the collections.video event. */
export function useCollectionVideos(collectionId: string | null, onStatusChange?: () => void): {
  videos: CollectionVideo[];
  error: string | null;
  reload: () => Promise<void>;
} {
  const [videos, setVideos] = useState<CollectionVideo[]>([]);
  const [error, setError] = useState<string | null>(null);
  const statusCb = useRef(onStatusChange);
  statusCb.current = onStatusChange;
  const known = useRef(new Map<number, CollectionVideo['status']>());

  const reload = useCallback(async () => {
    if (!collectionId) return;
    try {
      const r = await api.call('collections.videos', { collectionId });
      known.current = new Map(r.videos.map((v) => [v.clipId, v.status]));
      setVideos(r.videos);
      setError(null);
    } catch (e) {
      setError((e as AppError).message);
    }
  }, [collectionId]);

  useEffect(() => {
    setVideos([]);
    known.current = new Map();
    if (!collectionId) return;
    void reload();
    // Rows leave only with a change of the list (a removal here, or by another seat of the team).
    const offChanged = api.on('collections.changed', () => void reload());
    const offVideo = api.on('collections.video', (v) => {
      if (v.collectionId !== collectionId) return;
      // Counts in the list only change with a status: compare with what we hold before updating.
      const before = known.current.get(v.clipId);
      known.current.set(v.clipId, v.status);
      setVideos((prev) => {
        const i = prev.findIndex((x) => x.clipId === v.clipId);
        if (i < 0) return [...prev, v];
        const next = prev.slice();
        next[i] = v;
        return next;
      });
      if (before !== v.status) statusCb.current?.();
    });
    return () => {
      offChanged();
      offVideo();
    };
  }, [collectionId, reload]);

  return { videos, error, reload };
}
