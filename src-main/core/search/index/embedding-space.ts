import { createHash } from 'node:crypto';

/**
 * The embedding space a vector belongs to: the service's model and region, as the pipeline stores
 * them in embeddings.model / embeddings.region. Vectors of different spaces are never compared.
 */
export interface EmbeddingSpace {
  model: string;
  region: string;
}

/** A short stable name of a space: its index folder, its saved state, its text bank's key. */
export function spaceKey(space: EmbeddingSpace): string {
  return createHash('sha256').update(`${space.model}\u0000${space.region}`).digest('hex').slice(0, 16);
}
