import type { serviceActionsMethods } from '../../../src-shared/contract/service-actions';
import { AppError } from '../../../src-shared/errors';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import type { ClipShare } from '../team-port';
import { addByUrl, addUrlLimitMs, type AddByUrlDeps } from './add-by-url';
import { tagRangeNow, type TagRangeDeps } from './tag-range-now';

export function createServiceActionsHandlers(
  d: AddByUrlDeps & TagRangeDeps & { events: EventBus; signal: AbortSignal; /** The team's share while joined: a clip added here reaches the other seats. */ share: () => ClipShare | null },
): HandlersFor<typeof serviceActionsMethods> {
  // Add by URL calls running under a name the renderer gave them: its Cancel aborts that one.
  const attempts = new Map<string, AbortController>();
  return {
    'library.addUrl': async ({ url, name, attempt }) => {
      if (attempt && attempts.has(attempt)) throw new AppError('invalid', `an Add by URL named ${attempt} is already running`);
      const own = new AbortController();
      if (attempt) attempts.set(attempt, own);
      try {
        const r = await addByUrl(d, url, name, AbortSignal.any([d.signal, own.signal]));
        d.events.emit('catalog.changed', { reason: 'addUrl', clipIds: [r.clipId] });
        // Joined: its results (the service's reading of the address, poster and filmstrip) go to the team.
        d.share()?.indexed(r.clipId);
        return r;
      } finally {
        if (attempt) attempts.delete(attempt);
      }
    },
    'library.addUrlLimit': () => ({ limitMs: addUrlLimitMs(d.remote()) }),
    'library.cancelAddUrl': ({ attempt }) => {
      const running = attempts.get(attempt);
      running?.abort();
      return { cancelled: running !== undefined };
    },
    'viewer.tagRange': ({ clipId, startS, endS }) => tagRangeNow(d, clipId, startS, endS, d.signal),
  };
}
