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
  },
});
