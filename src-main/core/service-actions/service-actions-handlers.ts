import type { serviceActionsMethods } from '../../../src-shared/contract/service-actions';
import type { EventBus } from '../rpc/event-bus';
import type { HandlersFor } from '../rpc/handlers';
import { addByUrl, type AddByUrlDeps } from './add-by-url';
import { tagRangeNow, type TagRangeDeps } from './tag-range-now';

export function createServiceActionsHandlers(d: AddByUrlDeps & TagRangeDeps & { events: EventBus; signal: AbortSignal }): HandlersFor<typeof serviceActionsMethods> {
  return {
    'library.addUrl': async ({ url, name }) => {
      const r = await addByUrl(d, url, name, d.signal);
      d.events.emit('catalog.changed', { reason: 'addUrl', clipIds: [r.clipId] });
      return r;
    },
    'viewer.tagRange': ({ clipId, startS, endS }) => tagRangeNow(d, clipId, startS, endS, d.signal),
  };
}
