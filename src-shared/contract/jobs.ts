import type { MethodDef } from './define';
import type { z } from 'zod';

/** Jobs methods and events: filled in by the jobs work. */
export const jobsMethods = {} as const satisfies Record<string, MethodDef>;
export const jobsEvents = {} as const satisfies Record<string, z.ZodType>;
