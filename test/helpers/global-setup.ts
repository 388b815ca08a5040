import { ensureBuilt } from '../../scripts/build-if-changed.mjs';

/**
 * e2e tests drive the built renderer: build once per run when the sources changed since out/ was
 * built, with the script start:web uses (it swaps a finished build in, so a web instance started
 * from this checkout meanwhile is not built under).
 */
export default async function setup(): Promise<void> {
  ensureBuilt(undefined, { quiet: true });
}
