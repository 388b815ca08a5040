import type { MethodDef } from './define';
import type { z } from 'zod';

/** Library methods and events: filled in by the library work. */
export const libraryMethods = {} as const satisfies Record<string, MethodDef>;
export const libraryEvents = {} as const satisfies Record<string, z.ZodType>;
