import type { Envelope, EventMessage } from '../../../src-shared/contract/define';

/** What either adapter provides; the rest of the renderer never knows which one it talks to. */
export interface Transport {
  kind: 'electron' | 'web';
  invoke(method: string, args: unknown): Promise<Envelope>;
  onEvent(listener: (msg: EventMessage) => void): () => void;
  /**
   * The event stream (re)opened. Events sent while it was not open are lost (the web transport's
   * socket opens after the page's first reads, and reconnects after a drop), so state read
   * before must be read again. Electron's IPC has no such gap and leaves it out.
   */
  onConnect?(listener: () => void): () => void;
  /** Base for media URLs: rs-media:// in Electron, /media/ over HTTP. */
  mediaBase: string;
  pathForFile?: (file: File) => string;
  chooseFolders?: () => Promise<string[]>;
}
