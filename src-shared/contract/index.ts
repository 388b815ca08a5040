import type { z } from 'zod';
import type { MethodDef } from './define';
import { settingsMethods, settingsEvents } from './settings';
import { libraryMethods, libraryEvents } from './library';
import { jobsMethods, jobsEvents } from './jobs';
import { searchMethods, searchEvents } from './search';
import { collectionsMethods, collectionsEvents } from './collections';
import { marksMethods } from './marks';
import { selectsMethods } from './selects';
import { exportMethods } from './export';
import { filesMethods } from './files';
import { serviceActionsMethods } from './service-actions';
import { catalogMethods, catalogEvents } from './catalog';
import { teamMethods } from './team';
import { playbackMethods } from './playback';
import { peopleMethods } from './people';

export * from './define';

/** The whole renderer <-> main contract. Both transports (Electron IPC, localhost web) carry exactly this. */
export const METHODS = {
  ...settingsMethods,
  ...libraryMethods,
  ...jobsMethods,
  ...searchMethods,
  ...collectionsMethods,
  ...marksMethods,
  ...selectsMethods,
  ...exportMethods,
  ...filesMethods,
  ...serviceActionsMethods,
  ...catalogMethods,
  ...teamMethods,
  ...playbackMethods,
  ...peopleMethods,
} as const satisfies Record<string, MethodDef>;

/** Events pushed from main to the renderer. */
export const EVENTS = {
  ...settingsEvents,
  ...libraryEvents,
  ...jobsEvents,
  ...searchEvents,
  ...collectionsEvents,
  ...catalogEvents,
} as const satisfies Record<string, z.ZodType>;

export type Methods = typeof METHODS;
export type MethodName = keyof Methods;
/** What a caller passes (defaults not yet applied). */
export type ArgsIn<M extends MethodName> = z.input<Methods[M]['args']>;
/** What a handler receives (validated, defaults applied). */
export type ArgsOut<M extends MethodName> = z.output<Methods[M]['args']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;

export type Events = typeof EVENTS;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}
export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENTS, name);
}
