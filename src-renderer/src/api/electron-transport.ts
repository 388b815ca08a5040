import { envelopeSchema, type EventMessage } from '../../../src-shared/contract/define';
import type { Transport } from './transport';

interface PreloadApi {
  invoke(method: string, args: unknown): Promise<unknown>;
  onEvent(listener: (msg: EventMessage) => void): () => void;
  pathForFile(file: File): string;
  chooseFolders(): Promise<string[]>;
}

export function electronApi(): PreloadApi | undefined {
  return (window as unknown as { api?: PreloadApi }).api;
}

export function createElectronTransport(api: PreloadApi): Transport {
  return {
    kind: 'electron',
    invoke: async (method, args) => envelopeSchema.parse(await api.invoke(method, args)),
    onEvent: (listener) => api.onEvent(listener),
    mediaBase: 'rs-media://',
    pathForFile: (f) => api.pathForFile(f),
    chooseFolders: () => api.chooseFolders(),
  };
}
