import type { Envelope, EventMessage } from '../../../src-shared/contract/define';

/** What either adapter provides; the rest of the renderer never knows which one it talks to. */
export interface Transport {
  kind: 'electron' | 'web';
  invoke(method: string, args: unknown): Promise<Envelope>;
  onEvent(listener: (msg: EventMessage) => void): () => void;
  /** Base for media URLs: rs-media:// in Electron, /media/ over HTTP. */
  mediaBase: string;
  pathForFile?: (file: File) => string;
  chooseFolders?: () => Promise<string[]>;
}
