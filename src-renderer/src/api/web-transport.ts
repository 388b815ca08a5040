import { envelopeSchema, eventMessageSchema, type Envelope, type EventMessage } from '../../../src-shared/contract/define';
import type { Transport } from './transport';

/** The contract over the localhost server: POST /rpc/<method>, events on a WebSocket. The token travels as a cookie. */
export function createWebTransport(): Transport {
  const listeners = new Set<(m: EventMessage) => void>();
  const connectListeners = new Set<() => void>();
  let socket: WebSocket | null = null;
  let retryMs = 500;

  const connect = () => {
    const ws = new WebSocket(`ws://${location.host}/events`);
    socket = ws;
    ws.onopen = () => {
      retryMs = 500;
      for (const l of connectListeners) l();
    };
    ws.onmessage = (e) => {
      const parsed = eventMessageSchema.safeParse(JSON.parse(String(e.data)));
      if (parsed.success) for (const l of listeners) l(parsed.data);
    };
    ws.onclose = () => {
      socket = null;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10_000);
    };
  };

  return {
    kind: 'web',
    async invoke(method, args): Promise<Envelope> {
      let res: Response;
      try {
        res = await fetch(`/rpc/${encodeURIComponent(method)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args ?? {}),
        });
      } catch (e) {
        return { ok: false, error: { kind: 'offline', message: `app server unreachable: ${(e as Error).message}` } };
      }
      if (res.status === 401 || res.status === 403) return { ok: false, error: { kind: 'auth', message: 'this page has no valid session token: open the URL printed by start:web' } };
      return envelopeSchema.parse(await res.json());
    },
    onEvent(listener) {
      listeners.add(listener);
      if (!socket) connect();
      return () => listeners.delete(listener);
    },
    onConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    mediaBase: '/media/',
  };
}
