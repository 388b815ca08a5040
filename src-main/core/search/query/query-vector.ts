import { toAppError, type AppError, type AppErrorData } from '../../../../src-shared/errors';
import type { EmbeddingSpace } from '../index/embedding-space';
import type { TextShare } from '../../team-port';
import { normalizeQuery, type QueryEmbeddingStore } from './query-embedding-store';

export interface QueryVectorDeps {
  queryEmbeddings: QueryEmbeddingStore;
  /** A team library's encoded texts while this seat is joined; null when solo. */
  textShare: () => Pick<TextShare, 'online' | 'known' | 'encoded'> | null;
  /** encode_text, someone waiting on it; throws the AppError the call ended with. */
  encode: (text: string) => Promise<number[]>;
  /** A text was encoded: one more query runs offline now (the status line counts them). */
  onEncoded?: () => void;
}

export type QueryVector = { vector: Float32Array; origin: 'service' | 'cache'; cachedAt: number | null };

/**
 * The query's vector: from this catalog's cache, from the team's (another seat may have paid for
 * this text already), or encoded by the service and cached; the error when none of them has it.
 */
export async function queryVector(d: QueryVectorDeps, text: string, typed: string, space: EmbeddingSpace): Promise<QueryVector | { error: AppError }> {
  const cached = d.queryEmbeddings.cachedVector(text, space, typed);
  if (cached) return { vector: cached.vector, origin: 'cache', cachedAt: cached.createdAt };
  const share = d.textShare();
  // Only while the server answers: a search someone waits for never waits on a server that is away.
  const team = share?.online() ? (await share.known(space, [text])).get(normalizeQuery(text)) : undefined;
  if (team) {
    d.queryEmbeddings.save(text, space, team, typed);
    return { vector: team, origin: 'cache', cachedAt: null };
  }
  try {
    const embedding = await d.encode(text);
    d.queryEmbeddings.save(text, space, embedding, typed);
    void share?.encoded(space, text, embedding);
    d.onEncoded?.();
    return { vector: Float32Array.from(embedding), origin: 'service', cachedAt: null };
  } catch (e) {
    return { error: toAppError(e) };
  }
}

/** Why a query that is not cached cannot run, and what still works: the message the search box shows. */
export function explainCannotRun(err: AppError, text: string): AppErrorData {
  const fallback = 'Earlier searches still run from the cache, and "find similar" and filters work offline.';
  const q = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  switch (err.kind) {
    case 'offline':
      return { kind: err.kind, message: `Cannot run "${q}" offline: it was never searched before, and the service that encodes new queries cannot be reached (${err.message}). ${fallback}` };
    case 'timeout':
    case 'upstream':
    case 'server':
    case 'rate_limit':
      return {
        kind: err.kind,
        ...(err.status === undefined ? {} : { status: err.status }),
        message: `Cannot run "${q}" now: the service is reachable but too busy or slow to encode new queries (${err.message}). Try again in a minute. ${fallback}`,
      };
    case 'auth':
      return { kind: 'auth', message: `Cannot run "${q}": new queries need the service and ${err.message}. ${fallback}` };
    case 'quota':
      return { kind: 'quota', message: `Cannot run "${q}": the service quota is used up (${err.message}). ${fallback}` };
    default:
      return { ...err.toJSON(), message: `Cannot run "${q}": ${err.message}` };
  }
}
