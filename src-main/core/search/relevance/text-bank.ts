import { spaceKey, type EmbeddingSpace } from '../index/embedding-space';
import { normalizeQuery, type QueryEmbeddingStore } from '../query/query-embedding-store';
import type { VectorBank } from './baselines';
import { BANK_PHRASES, BANK_VERSION } from './query-bank';

export interface TextBankState {
  /** Every reference query encoded in one dimension (the index's, once it has one); null until then. */
  bank: VectorBank | null;
  encoded: number;
  total: number;
  /** Phrases still to encode (missing, damaged, or of another dimension than the rest). */
  missing: string[];
}

/** The dimension the bank must have: the index's when it has vectors, else the one most cached rows share. */
function wantedDimension(cached: Map<string, Float32Array>, indexDimension: number): number {
  if (indexDimension > 0) return indexDimension;
  const counts = new Map<number, number>();
  for (const v of cached.values()) counts.set(v.length, (counts.get(v.length) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

/** The reference queries of `space` as the query embeddings hold them. */
export function readTextBank(store: QueryEmbeddingStore, space: EmbeddingSpace, indexDimension: number): TextBankState {
  const cached = store.bankVectors(space, BANK_VERSION);
  const dim = wantedDimension(cached, indexDimension);
  const rows: Float32Array[] = [];
  const missing: string[] = [];
  for (const phrase of BANK_PHRASES) {
    const v = cached.get(normalizeQuery(phrase));
    if (v && v.length === dim) rows.push(v);
    else missing.push(phrase);
  }
  const total = BANK_PHRASES.length;
  if (missing.length > 0 || dim === 0) return { bank: null, encoded: rows.length, total, missing };
  const data = new Float32Array(rows.length * dim);
  rows.forEach((v, i) => {
    let n = 0;
    for (let j = 0; j < dim; j++) n += v[j]! * v[j]!;
    const s = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < dim; j++) data[i * dim + j] = v[j]! * s;
  });
  return { bank: { key: `text:${BANK_VERSION}:${spaceKey(space)}:${dim}`, dimension: dim, rows: rows.length, data }, encoded: total, total, missing: [] };
}
