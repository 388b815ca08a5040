import type { z } from 'zod';
import type { ArgsOut, MethodName, Methods } from '../../../src-shared/contract';

export interface HandlerContext {
  /** Which adapter the call came through; handlers rarely care. */
  transport: 'electron' | 'web' | 'test';
}

export type Handler<M extends MethodName> = (
  args: ArgsOut<M>,
  ctx: HandlerContext,
) => Promise<z.input<Methods[M]['result']>> | z.input<Methods[M]['result']>;

export type Handlers = { [M in MethodName]: Handler<M> };

/** The handlers of one domain of the contract (for example the keys of libraryMethods). */
export type HandlersFor<T extends Record<string, unknown>> = { [M in keyof T & MethodName]: Handler<M> };
