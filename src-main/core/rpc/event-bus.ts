import type { EventName, EventPayload } from '../../../src-shared/contract';

export type EventListener = (event: EventName, payload: unknown) => void;

/** Main -> renderer events. Transports subscribe; core modules only emit. */
export class EventBus {
  private listeners = new Set<EventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch {
        // A broken subscriber (closed socket, destroyed window) must not stop the others.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
