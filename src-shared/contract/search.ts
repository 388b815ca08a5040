import type { MethodDef } from './define';
import type { z } from 'zod';

/** Search methods and events: filled in by the search work. */
export const searchMethods = {} as const satisfies Record<string, MethodDef>;
export const searchEvents = {} as const satisfies Record<string, z.ZodType>;
