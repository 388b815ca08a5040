import type { Dispatch } from '../../../src-main/core/rpc/dispatcher';

/**
 * A contract method through the app's one dispatcher, as a transport calls it; an error answer is
 * thrown with its kind, so a test or bench that expects success fails with the app's reason.
 */
export async function callOk<T = unknown>(core: { dispatch: Dispatch }, method: string, args: unknown = {}): Promise<T> {
  const r = await core.dispatch(method, args, { transport: 'test' });
  if (!r.ok) throw new Error(`${method}: ${r.error.kind}: ${r.error.message}`);
  return r.value as T;
}
