import type { MethodDef } from './define';
import type { z } from 'zod';

/** Collections methods and events: filled in by the collections work. */
export const collectionsMethods = {} as const satisfies Record<string, MethodDef>;
export const collectionsEvents = {} as const satisfies Record<string, z.ZodType>;
