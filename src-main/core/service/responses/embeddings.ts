import { findVectors, notUnderstood } from './read-body';

/** The answers of encode_video and encode_text: their vectors, wherever the service puts them. */

export interface EncodeVideoResult {
  embeddings: number[][];
  /** Length of the first vector: the spec fixes no dimension. */
  dimension: number;
  raw: unknown;
}

export function parseEncodeVideo(body: unknown): EncodeVideoResult {
  const vectors = findVectors(body);
  if (!vectors || vectors[0]!.length === 0) throw notUnderstood('encode_video', body);
  return { embeddings: vectors, dimension: vectors[0]!.length, raw: body };
}

export interface EncodeTextResult {
  embedding: number[];
  dimension: number;
  raw: unknown;
}

export function parseEncodeText(body: unknown): EncodeTextResult {
  const vectors = findVectors(body);
  if (!vectors || vectors[0]!.length === 0) throw notUnderstood('encode_text', body);
  return { embedding: vectors[0]!, dimension: vectors[0]!.length, raw: body };
}
