import type { Migration } from '../migration';
import { recanonicaliseStoredTags } from '../../tags/recanonicalise';

/**
 * Tag values stored as their source spelled them ("CU", "Extreme Wide Shot", "hand-held", the local
 * "close-up") become ids of the one vocabulary (tags/tag-vocabulary.ts), so an older library's
 * facets merge and its filters find every shot. service_tags.raw_json keeps the service's answer.
 */
export const m0014CanonicalTags: Migration = {
  version: 14,
  name: 'tag values onto the canonical vocabulary',
  up(db) {
    recanonicaliseStoredTags(db);
  },
};
