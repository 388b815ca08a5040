import { AppError } from '../../../src-shared/errors';
import { EVENTS, METHODS, type ArgsIn, type EventName, type EventPayload, type MethodName, type Result } from '../../../src-shared/contract';
import { mediaPath, type MediaRef } from '../../../src-shared/media-ref';
import { createElectronTransport, electronApi } from './electron-transport';
import type { Transport } from './transport';
import { createWebTransport } from './web-transport';

export interface ApiClient {
  readonly transport: Transport['kind'];
  /** Resolves with the validated result, rejects with an AppError that has a kind. */
  call<M extends MethodName>(method: M, args: ArgsIn<M>): Promise<Result<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Read state again: the event stream (re)opened and what it sent while closed is lost (web transport only). */
  onResync(listener: () => void): () => void;
  mediaUrl(ref: MediaRef): string;
  pathForFile?: (file: File) => string;
  chooseFolders?: () => Promise<string[]>;
}

export function createApiClient(transport: Transport): ApiClient {
  return {
    transport: transport.kind,
    async call(method, args) {
      const env = await transport.invoke(method, args);
      if (!env.ok) throw AppError.from(env.error);
      return METHODS[method].result.parse(env.value) as Result<typeof method>;
    },
    on(event, listener) {
      return transport.onEvent((msg) => {
        if (msg.event !== event) return;
        const parsed = EVENTS[event].safeParse(msg.payload);
        if (parsed.success) listener(parsed.data as EventPayload<typeof event>);
      });
    },
    onResync: (listener) => transport.onConnect?.(listener) ?? (() => {}),
    mediaUrl: (ref) => transport.mediaBase + mediaPath(ref),
    pathForFile: transport.pathForFile,
    chooseFolders: transport.chooseFolders,
  };
}

const preload = electronApi();
/** The app-wide client: Electron's preload bridge when present, else the localhost web transport. */
export const api: ApiClient = createApiClient(preload ? createElectronTransport(preload) : createWebTransport());
