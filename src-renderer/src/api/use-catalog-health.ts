import { useCallback, useEffect, useState } from 'react';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { api } from './client';

const FULL_DISK = new Set<CatalogHealth['state']>(['read_only', 'no_room']);

/**
 * The catalog's state (ok, read-only on a full disk, no room for it yet, damaged), kept fresh by the catalog.health
 * event and read again whenever the event stream (re)opens. `epoch` grows each time the catalog
 * changed under the app (restored, started anew, writable again), so views can load afresh.
 */
export function useCatalogHealth(): { health: CatalogHealth | null; epoch: number; error: string | null; setHealth: (h: CatalogHealth) => void } {
  const [health, setState] = useState<CatalogHealth | null>(null);
  const [epoch, setEpoch] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const setHealth = useCallback((h: CatalogHealth) => {
    setState((old) => {
      // A full disk's figures change every few seconds: the views stay; only a new catalog (or a
      // new state of it) loads them afresh.
      if (old && (old.state !== h.state || (old.message !== h.message && !FULL_DISK.has(h.state)))) setEpoch((e) => e + 1);
      return h;
    });
  }, []);
  useEffect(() => {
    let live = true;
    const load = () =>
      void api.call('catalog.health', {}).then(
        (h) => live && (setHealth(h), setError(null)),
        (e: Error) => live && setError(e.message),
      );
    load();
    const off = api.on('catalog.health', setHealth);
    const offSync = api.onResync(load);
    return () => {
      live = false;
      off();
      offSync();
    };
  }, [setHealth]);
  return { health, epoch, error, setHealth };
}
