/**
 * Child process of collections-restart.test.ts: the app's collection work on a catalog, killed
 * with SIGKILL by the test at a chosen moment. argv: catalog, cacheDir, emulator URL.
 */
import { harness } from './collections-fixture';

async function main(): Promise<void> {
  const [catalog, cacheDir, url] = process.argv.slice(2);
  if (!catalog || !cacheDir || !url) throw new Error('usage: collections-crash-child CATALOG CACHE_DIR URL');
  const h = harness({ catalog, cacheDir, url });
  h.module.resume();
  process.stdout.write('started\n');
  await h.idle();
  await h.close();
  process.stdout.write('idle\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
