import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// One runner for unit, integration and e2e tests. Forks, not threads: native addons
// (better-sqlite3, onnxruntime-node) and child ffmpeg processes behave best in their own process.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    // Web mode keeps master keys outside the data folder, in the user's config folder: tests keep
    // theirs in the temp folder instead.
    env: { REELSCOUT_KEY_DIR: path.join(os.tmpdir(), 'reelscout-test-keys') },
  },
});
