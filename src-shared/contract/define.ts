import { z } from 'zod';
import { appErrorSchema } from '../errors';

/** One request/response method of the renderer <-> main contract. */
export interface MethodDef<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
}

export function method<A extends z.ZodType, R extends z.ZodType>(args: A, result: R): MethodDef<A, R> {
  return { args, result };
}

/** What every call returns across either transport: errors travel as values with a kind. */
export const envelopeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: appErrorSchema }),
]);
export type Envelope = z.infer<typeof envelopeSchema>;

export const eventMessageSchema = z.object({ event: z.string(), payload: z.unknown() });
export type EventMessage = z.infer<typeof eventMessageSchema>;

export const voidSchema = z.object({}).strict();
export const okSchema = z.object({ ok: z.literal(true) });
