import { useCallback, useEffect, useState } from 'react';
import type { Person } from '../../../../src-shared/contract/people';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

export interface PeopleList {
  people: readonly Person[];
  /** Face recognition is on (the setting): off, the view says so and where to turn it on. */
  recognition: boolean;
  loaded: boolean;
  error: string | null;
  /** Read again now (after the editor's own change, so the view does not wait for the event). */
  reload: () => void;
  /** Bumped at every read: parts that read more of a person (faces, suggestions) read again. */
  version: number;
}

/** Every person and proposed group, read again when main says people changed (and when the event stream comes back). */
export function usePeople(showHidden: boolean): PeopleList {
  const [state, setState] = useState<{ people: readonly Person[]; recognition: boolean; loaded: boolean; error: string | null; version: number }>({
    people: [],
    recognition: true,
    loaded: false,
    error: null,
    version: 0,
  });
  const reload = useCallback(() => {
    api.call('people.list', { hidden: showHidden }).then(
      (r) => setState((s) => ({ people: r.people, recognition: r.recognition, loaded: true, error: null, version: s.version + 1 })),
      (e: AppError) => setState((s) => ({ ...s, loaded: true, error: e.message })),
    );
  }, [showHidden]);
  useEffect(() => {
    reload();
    const off = api.on('catalog.changed', (p) => p.reason === 'people' && reload());
    const offResync = api.onResync(reload);
    return () => {
      off();
      offResync();
    };
  }, [reload]);
  return { ...state, reload };
}
