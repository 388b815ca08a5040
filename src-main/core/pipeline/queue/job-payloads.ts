import { z } from 'zod';
import type { StageName } from '../../../../src-shared/contract/stage-graph';

/**
 * Each stage's job payload, declared once and parsed before the stage runs (as Signal's job
 * queues' `parseData(data: unknown): T`): a row this version did not write (an older or newer
 * app, a hand-edited catalog) fails its job with the reason instead of reaching a stage as
 * something else. Every stage today works from its job's clip (`jobs.clip_id`; query-bank from
 * nothing), so each carries none: `null`. A stage that needs data declares its schema here and
 * reads it typed from `ctx.payload`.
 */
const NONE = z.null();

export const JOB_PAYLOADS = {
  probe: NONE,
  poster: NONE,
  analysis: NONE,
  upload: NONE,
  submit: NONE,
  poll: NONE,
  index: NONE,
  'collection-upload': NONE,
  'collection-poll': NONE,
  'query-bank': NONE,
  proxy: NONE,
  identities: NONE,
  rate: NONE,
} as const satisfies Record<StageName, z.ZodType>;

export type PayloadOf<S extends StageName> = z.infer<(typeof JOB_PAYLOADS)[S]>;

/** The payload as the stage reads it, or why it cannot be read. */
export function parseJobPayload<S extends StageName>(stage: S, data: unknown): { ok: true; payload: PayloadOf<S> } | { ok: false; reason: string } {
  const r = JOB_PAYLOADS[stage].safeParse(data);
  if (r.success) return { ok: true, payload: r.data as PayloadOf<S> };
  const shown = JSON.stringify(data) ?? String(data);
  return { ok: false, reason: `the ${stage} job's payload is not one this version reads (${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}): ${z.prettifyError(r.error).replace(/\s+/g, ' ').trim()}` };
}
