import { AppError, toAppError } from '../../../src-shared/errors';
import { METHODS, isMethodName, type Envelope, type MethodName } from '../../../src-shared/contract';
import type { HandlerContext, Handlers } from './handlers';
import type { Logger } from '../util/logger';

export type Dispatch = (method: string, rawArgs: unknown, ctx: HandlerContext) => Promise<Envelope>;

/**
 * The single entry for both transports: arguments are validated before a handler runs and
 * results are validated before they leave, so neither side trusts the other's shapes. `explain`
 * may put an error in the app's words (a full disk names the folder and what it needs).
 */
export function createDispatcher(handlers: Handlers, logger?: Logger, explain: (e: AppError) => AppError = (e) => e): Dispatch {
  return async (method, rawArgs, ctx) => {
    try {
      if (!isMethodName(method)) throw new AppError('not_found', `unknown method ${method}`);
      const def = METHODS[method];
      const parsed = def.args.safeParse(rawArgs ?? {});
      if (!parsed.success) {
        throw new AppError('invalid', `${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`);
      }
      const handler = handlers[method as MethodName] as (a: unknown, c: HandlerContext) => unknown;
      const value = await handler(parsed.data, ctx);
      const out = def.result.safeParse(value);
      if (!out.success) {
        logger?.error('rpc.result.invalid', { method, issues: out.error.issues.slice(0, 5) });
        throw new AppError('internal', `${method} returned an invalid result`);
      }
      return { ok: true, value: out.data };
    } catch (e) {
      const err = explain(toAppError(e));
      if (err.kind === 'internal') logger?.error('rpc.failed', { method, message: err.message, stack: (e as Error)?.stack });
      return { ok: false, error: err.toJSON() };
    }
  };
}
