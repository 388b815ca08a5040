#!/usr/bin/env node
// Runs vitest and closes with one plain line "tests: N passed, N failed, N skipped" that any CI can read.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const report = path.join(os.tmpdir(), `reelscout-vitest-${process.pid}.json`);
const vitest = path.resolve('node_modules', 'vitest', 'vitest.mjs');
const r = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], { stdio: 'inherit' });
let summary = null;
try {
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  summary = { passed: j.numPassedTests, failed: j.numFailedTests, skipped: j.numPendingTests + (j.numTodoTests ?? 0) };
  fs.rmSync(report, { force: true });
} catch {
  /* vitest died before writing its report: its exit code says so */
}
if (summary) console.log(`tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
const code = r.status ?? 1;
process.exit(code === 0 && summary && summary.passed === 0 ? 1 : code);
