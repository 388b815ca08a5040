import { toAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../service';
import { jittered, sleep } from '../service/http/abort';

/** Failures after which the collection may or may not exist on the service: the answer was lost. */
const AMBIGUOUS = new Set(['timeout', 'upstream', 'server', 'offline']);
const MAX_ATTEMPTS = 4;
const BASE_DELAY_MS = 500;

export interface CreatedCollection {
  collectionId: string;
  raw: unknown;
  /** True when a lost answer was resolved by finding the collection in the list. */
  found: boolean;
}

/**
 * Creates a collection exactly once through lost answers. Creation is not idempotent in the spec
 * (no client token, names need not be unique), so after a 5xx, a 504 or a dropped connection the
 * list is read before creating again: a collection of that name that was not there before the
 * first attempt is the one the service made. A 429 was not carried out and is simply sent again.
 */
export async function createCollectionOnce(client: ServiceClient, name: string, description: string, opts: { random?: () => number } = {}): Promise<CreatedCollection> {
  const before = new Set((await client.listCollections()).filter((c) => c.name === name).map((c) => c.id));
  for (let attempt = 0; ; attempt++) {
    try {
      const { collectionId, raw } = await client.createCollection(name, description);
      return { collectionId, raw, found: false };
    } catch (e) {
      const err = toAppError(e);
      const last = attempt + 1 >= MAX_ATTEMPTS;
      if (err.kind === 'rate_limit' && !last) {
        await sleep(err.retryAfterMs ?? jittered(BASE_DELAY_MS * 2 ** attempt, opts.random));
        continue;
      }
      if (!AMBIGUOUS.has(err.kind)) throw err;
      await sleep(jittered(BASE_DELAY_MS * 2 ** attempt, opts.random));
      const made = (await client.listCollections()).find((c) => c.name === name && !before.has(c.id));
      if (made) return { collectionId: made.id, raw: made.raw, found: true };
      if (last) throw err;
    }
  }
}
