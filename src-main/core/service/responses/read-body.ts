import { z } from 'zod';
import { AppError } from '../../../../src-shared/errors';

/**
 * What every tolerant reader of the service's answers shares. Each reader keeps the raw JSON, looks
 * for the spec's field first and then for the spellings a real service plausibly uses, and throws
 * AppError('invalid') (no retry: the same answer will come back) when the needed part is missing.
 */

const vectorSchema = z.array(z.number());
const matrixSchema = z.array(vectorSchema).min(1);
export const looseRecord = z.looseObject({});

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function notUnderstood(what: string, body: unknown): AppError {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return new AppError('invalid', `${what}: service response not understood: ${text.slice(0, 200)}`);
}

export const VIDEO_ID_KEYS = ['video_id', 'videoId', 'id'];

export function firstString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** Every vector found in the places embeddings are put: [[..]], [..], [{embedding: [..]}], nested under data/result. */
export function findVectors(body: unknown, depth = 0): number[][] | undefined {
  if (depth > 3) return undefined;
  const asMatrix = matrixSchema.safeParse(body);
  if (asMatrix.success) return asMatrix.data;
  const asVector = vectorSchema.min(1).safeParse(body);
  if (asVector.success) return [asVector.data];
  if (Array.isArray(body) && body.length > 0 && body.every(isRecord)) {
    const vs = body.map((item) => findVectors(item, depth + 1)?.[0]);
    if (vs.every((v): v is number[] => v !== undefined)) return vs;
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  for (const key of ['embeddings', 'embedding', 'vectors', 'vector', 'data', 'result', 'output']) {
    if (!(key in body)) continue;
    const found = findVectors(body[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The id a creating call answers with, under the first of `keys` the body has. */
export function requiredId(body: unknown, keys: string[], what: string): string {
  const o = looseRecord.safeParse(body);
  const id = o.success ? firstString(o.data, keys) : undefined;
  if (!id) throw notUnderstood(what, body);
  return id;
}

/** A status word as the state tables spell it: lower case, words joined by `_`. */
export function stateKey(s: string): string {
  return s.trim().toLowerCase().replace(/[\s-]+/g, '_');
}
