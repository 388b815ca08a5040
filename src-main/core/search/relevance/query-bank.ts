import { createHash } from 'node:crypto';

/**
 * The reference queries relevance is measured against (relevance-math.ts, docs/notes-search.md
 * "Relevance"): generic descriptions of footage, of the kind editors type, spread over people,
 * places, subjects, actions, light and colour. Each segment's similarities to these give its own
 * baseline: a segment that resembles everything (dark, grey, busy pictures are near many texts)
 * has a high one, so a query must beat what generic text reaches on that very segment to count as
 * a match (querybank normalisation, Bogolin et al., CVPR 2022; CSLS, Conneau et al., 2018).
 *
 * Encoded once per embedding space (service, base URL, region) through the job queue's
 * `query-bank` stage and cached with the other query embeddings: 64 billable encode_text calls, once.
 * Changing a phrase changes BANK_VERSION, and the bank is encoded again.
 */
export const BANK_PHRASES: readonly string[] = [
  'a person talking to the camera',
  'a man walking',
  'a woman smiling',
  'a child playing',
  'two people having a conversation',
  'a crowd of people',
  'hands holding an object',
  'someone running',
  'a person sitting at a desk',
  'people dancing',
  'a city street',
  'buildings and a skyline',
  'a road with cars',
  'an office interior',
  'a kitchen',
  'a living room',
  'a forest',
  'a beach and the sea',
  'mountains',
  'a field of grass',
  'a river',
  'the sky with clouds',
  'a park with trees',
  'a dog',
  'a cat',
  'a bird',
  'an insect',
  'a horse',
  'flowers',
  'food on a table',
  'a cup of coffee',
  'a bottle',
  'a car driving',
  'a bicycle',
  'a train',
  'an airplane',
  'a boat on the water',
  'a computer screen',
  'a phone',
  'a book',
  'a sports game',
  'cooking',
  'a concert on stage',
  'a meeting',
  'a fight',
  'an explosion',
  'an animated cartoon',
  'text on the screen',
  'water',
  'fire',
  'snow',
  'rain',
  'daylight',
  'night',
  'a sunset',
  'an empty room',
  'a dark scene',
  'a bright scene',
  'black and white footage',
  'a red object',
  'something blue',
  'green vegetation',
  'yellow light',
  'a white background',
];

/** Identifies this list: rows cached for another version are encoded again. */
export const BANK_VERSION = createHash('sha256').update(BANK_PHRASES.join('\n')).digest('hex').slice(0, 12);
